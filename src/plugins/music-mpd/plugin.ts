// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import type { PluginStatus } from '../api/index.ts';
import { libraryActions } from './actions/library.ts';
import { optionActions } from './actions/options.ts';
import { playbackActions } from './actions/playback.ts';
import { playlistActions } from './actions/playlists.ts';
import { queueActions } from './actions/queue.ts';
import { MpdClient } from './client.ts';
import { MpdConfig } from './config.ts';
import { head } from './head.ts';
import { MpdWatcher } from './watcher.ts';

/**
 * MPD (and Mopidy's MPD interface) with Platypush's `music.mpd` actions and events: one
 * connection for commands, one parked in `idle` for the events, both reconnecting on their own.
 *
 * @example
 * // config.yaml
 * // music.mpd:
 * //   host: localhost
 * //   port: 6600
 */
export default definePlugin<MpdConfig, MpdClient>({
  ...head,
  summary:
    "MPD and Mopidy: playback, volume, the queue, stored playlists and the library over the MPD protocol, with Platypush's music events.",
  config: MpdConfig,
  actions: [
    ...playbackActions,
    ...optionActions,
    ...queueActions,
    ...playlistActions,
    ...libraryActions,
  ],
  init: ({ config, log, fire, signal, setStatus }) => {
    let last = '';
    const report = () => {
      const down = [mpd.link, watcher.link].find((link) => !link.conn);
      const status: PluginStatus = down
        ? {
            connected: false,
            detail: `MPD ${mpd.where} not connected${down.lastError ? `: ${down.lastError}` : ''}${down.retryAt ? `; retrying in ${down.retryIn()} s` : ''}`,
          }
        : { connected: true, detail: `MPD ${mpd.where} connected (protocol ${mpd.version})` };
      const key = JSON.stringify(status);
      if (key !== last) setStatus(status);
      last = key;
    };
    const mpd = new MpdClient(config, log, signal, report);
    const watcher = new MpdWatcher(config, log, signal, report, fire);
    report();
    mpd.start();
    watcher.start();
    return mpd;
  },
});
