import { z } from 'zod';

// Result schemas of the plugin's entities (Platypush's fields), for the catalog. Fields the API no
// longer sends (e.g. popularity for Development-Mode apps) are null.

const common = {
  id: z.string().nullable().describe('provider ID (null for local files)'),
  uri: z.string().describe('provider URI'),
  url: z.string().nullable().describe('provider URL (open.spotify.com)'),
  image_url: z.string().nullable().describe('image URL'),
  popularity: z
    .number()
    .nullable()
    .describe('0 to 100; null when the API no longer gives it (Development Mode)'),
};

/** A track. */
export const TrackOut = z.object({
  ...common,
  album: z.string().nullable().describe('album name'),
  artist: z.string().nullable().describe('artist names, comma-separated'),
  date: z.number().int().nullable().describe('release year'),
  duration: z.number().nullable().describe('duration in seconds'),
  file: z.string().describe('cross-compatibility file ID, same as uri'),
  image_url: z.string().nullable().describe('album image URL'),
  title: z.string().describe('track title'),
  track: z.number().int().nullable().describe('track number on the album'),
  type: z.literal('track'),
});
export type TrackOut = z.output<typeof TrackOut>;

/** An episode: the track fields plus description and show. */
export const EpisodeOut = TrackOut.extend({
  type: z.literal('episode'),
  description: z.string().nullable().describe('episode description'),
  show: z.string().nullable().describe('name of the show'),
});
export type EpisodeOut = z.output<typeof EpisodeOut>;

/** A track or an episode. */
export const PlayableOut = z.union([TrackOut, EpisodeOut]);
export type PlayableOut = z.output<typeof PlayableOut>;

/** An album. */
export const AlbumOut = z.object({
  ...common,
  artist: z.string().nullable().describe('artist names, comma-separated'),
  date: z
    .string()
    .nullable()
    .describe('release date as Spotify gives it (YYYY, YYYY-MM or YYYY-MM-DD)'),
  name: z.string(),
  tracks: z.array(TrackOut).nullable().describe('tracks on the album; null when not included'),
  type: z.literal('album'),
});
export type AlbumOut = z.output<typeof AlbumOut>;

/** A show: album fields plus description and publisher. */
export const ShowOut = AlbumOut.extend({
  type: z.literal('show'),
  tracks: z.array(EpisodeOut).nullable().describe('episodes; null when not included'),
  description: z.string().nullable(),
  publisher: z.string().nullable().describe('publisher name'),
});
export type ShowOut = z.output<typeof ShowOut>;

/** An artist. */
export const ArtistOut = z.object({
  ...common,
  genres: z.array(z.string()).nullable().describe('genres; null when the API no longer gives them'),
  name: z.string(),
  type: z.literal('artist'),
});
export type ArtistOut = z.output<typeof ArtistOut>;

/** A playlist item: the track or episode with its 1-based position in the playlist. */
export const PlaylistItemOut = z.union([
  TrackOut.extend({ position: z.number().int().describe('1-based position in the playlist') }),
  EpisodeOut.extend({ position: z.number().int().describe('1-based position in the playlist') }),
]);
export type PlaylistItemOut = z.output<typeof PlaylistItemOut>;

/** A playlist. */
export const PlaylistOut = z.object({
  collaborative: z.boolean(),
  description: z.string().nullable(),
  id: z.string(),
  name: z.string(),
  owner: z
    .object({ id: z.string(), display_name: z.string().nullable(), uri: z.string().nullable() })
    .describe('playlist owner'),
  public: z.boolean().nullable(),
  snapshot_id: z.string().describe('changes every time the playlist is modified'),
  tracks: z
    .array(PlaylistItemOut)
    .nullable()
    .describe(
      'items (tracks and episodes) with 1-based positions; null when not requested or hidden',
    ),
  uri: z.string(),
  url: z.string().nullable(),
});
export type PlaylistOut = z.output<typeof PlaylistOut>;

/** A device. */
export const DeviceOut = z.object({
  id: z.string().nullable(),
  is_active: z.boolean(),
  is_private_session: z.boolean(),
  is_restricted: z.boolean(),
  name: z.string(),
  type: z
    .string()
    .describe('Unknown, Computer, Tablet, Smartphone, Speaker, TV, AVR, STB, Audio dongle'),
  volume: z.number().nullable().describe('percentage 0 to 100'),
});
export type DeviceOut = z.output<typeof DeviceOut>;

/** The player status. */
export const StatusOut = z.object({
  device_id: z.string().nullable(),
  device_name: z.string().nullable(),
  elapsed: z.number().nullable().describe('seconds into the current item'),
  random: z.boolean().nullable().describe('shuffle on'),
  repeat: z.boolean().nullable().describe('repeat on (context or track)'),
  state: z.enum(['stop', 'play', 'pause', 'idle']),
  time: z.number().nullable().describe('duration of the current item, in seconds'),
  track: PlayableOut.nullable(),
  volume: z.number().nullable(),
});
export type StatusOut = z.output<typeof StatusOut>;

/** One entry of the listening history. */
export const HistoryOut = TrackOut.extend({
  played_at: z.string().describe('ISO 8601 time the track was played'),
  context_uri: z.string().nullable().describe('album/playlist/artist it was played from'),
});
export type HistoryOut = z.output<typeof HistoryOut>;
