// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePluginHead, z } from '../api/index.ts';

const Fields = {
  plugin_name: z.literal('music.mpd').describe('the plugin that raised it: music.mpd'),
  status: z
    .record(z.string(), z.unknown())
    .describe("the player's status, as music.mpd.status answers it"),
  track: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('the current track, as music.mpd.current_track answers it ({} when there is none)'),
};
const ModeChange = z.object({
  ...Fields,
  state: z.boolean().describe('the mode is now on'),
});

/** The events the plugin raises: Platypush's `platypush.message.event.music` kinds and fields. */
export const MPD_EVENTS = {
  'music.MusicPlayEvent': z.object(Fields),
  'music.MusicPauseEvent': z.object(Fields),
  'music.MusicStopEvent': z.object(Fields),
  'music.NewPlayingTrackEvent': z.object(Fields),
  'music.VolumeChangeEvent': z.object({
    ...Fields,
    volume: z.number().int().describe('the new volume, 0-100'),
  }),
  'music.PlaylistChangeEvent': z.object({
    ...Fields,
    changes: z
      .null()
      .describe('null, as in Platypush: read music.mpd.playlistinfo for the new queue'),
  }),
  'music.PlaybackRandomModeChangeEvent': ModeChange,
  'music.PlaybackRepeatModeChangeEvent': ModeChange,
  'music.PlaybackConsumeModeChangeEvent': ModeChange,
  'music.PlaybackSingleModeChangeEvent': ModeChange,
} as const;

/**
 * `music.mpd`'s facts, for the plugin and the catalog: off until configured, and Platypush's music
 * events (raised as `pipit.message.event.music.<Kind>`).
 *
 * @example
 * definePlugin({ ...head, summary: '...', actions });
 */
export const head = definePluginHead({
  name: 'music.mpd',
  disabledHint:
    'it needs an MPD server: add a "music.mpd:" section with "host" (and "port", "password" if set)',
  events: MPD_EVENTS,
});
