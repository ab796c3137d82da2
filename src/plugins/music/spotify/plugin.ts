import { definePlugin } from '../../../core/action.ts';
import { headFacts } from '../../api/head.ts';
import { head } from './head.ts';
import { controlActions } from './actions/controls.ts';
import { libraryActions } from './actions/library.ts';
import { playbackActions } from './actions/playback.ts';
import { playlistEditActions } from './actions/playlist-edits.ts';
import { playlistActions } from './actions/playlists.ts';
import { searchActions } from './actions/search.ts';
import { statusActions } from './actions/status.ts';
import { SpotifyAuth } from './auth.ts';
import { SpotifyClient } from './client.ts';
import { DEFAULT_REDIRECT_URI, loopbackRedirectUri, SpotifyConfig } from './config.ts';
import { spotifyHttp } from './http.ts';
import type { SpotifyState } from './state.ts';
import { realTimers } from './timers.ts';

export default definePlugin<SpotifyConfig, SpotifyState>({
  ...headFacts(head),
  // Privileged: it reports upstream calls to /metrics and serves its authorization pages with the
  // guard.
  privileged: true,
  summary:
    'Spotify: playback on your devices, playlists, library and search, through the Web API (set-up: README.md, "The Spotify plugin").',
  config: SpotifyConfig,
  actions: [
    ...playbackActions,
    ...controlActions,
    ...statusActions,
    ...playlistActions,
    ...playlistEditActions,
    ...libraryActions,
    ...searchActions,
  ],
  init: ({ config, log, services }) => {
    // The default redirect names the service's configured port (8008 when it has none, or 0:
    // the web UI's Connect then uses the port it was reached on).
    const http = services.configValue('backend.http') as { port?: number } | undefined;
    const auth = new SpotifyAuth(
      config,
      services.store.pluginKv('music.spotify'),
      log,
      realTimers(),
      http?.port ? loopbackRedirectUri(http.port) : DEFAULT_REDIRECT_URI,
    );
    const client = new SpotifyClient(config, auth, log, services.metrics);
    return { config, auth, client, log, devices: undefined };
  },
  http: (app, ctx) => spotifyHttp(app, ctx),
});
