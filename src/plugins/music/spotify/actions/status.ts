import { z } from 'zod';
import { PipitError } from '../../../../core/errors.ts';
import { toDevice, toPlayable, toTrack } from '../mappers.ts';
import type { ApiEpisode, ApiTrack } from '../mappers.ts';
import { playbackState } from '../player.ts';
import { DeviceOut, HistoryOut, PlayableOut, StatusOut } from '../schemas.ts';
import type { HistoryOut as HistoryRow, StatusOut as Status } from '../schemas.ts';
import { listDevices, spotifyAction } from '../state.ts';

const status = spotifyAction({
  name: 'status',
  summary:
    'Returns the player status; state "stop" when no device is active, "idle" when nothing is loaded.',
  params: {},
  result: StatusOut,
  run: async (_args, { state, signal }): Promise<Status> => {
    const playback = await playbackState(state, signal);
    if (!playback) {
      return {
        device_id: null,
        device_name: null,
        elapsed: null,
        random: null,
        repeat: null,
        state: 'stop',
        time: null,
        track: null,
        volume: null,
      };
    }
    const item = playback.item ? toPlayable(playback.item) : null;
    return {
      device_id: playback.device?.id ?? null,
      device_name: playback.device?.name ?? null,
      elapsed:
        item && typeof playback.progress_ms === 'number' ? playback.progress_ms / 1000 : null,
      random: playback.shuffle_state ?? null,
      repeat: playback.repeat_state === undefined ? null : playback.repeat_state !== 'off',
      state: !item ? 'idle' : playback.is_playing ? 'play' : 'pause',
      time: item?.duration ?? null,
      track: item,
      volume: playback.device?.volume_percent ?? null,
    };
  },
});

const currentTrack = spotifyAction({
  name: 'current_track',
  summary: 'Returns the track (or episode) now playing, or {} when nothing plays.',
  params: {},
  result: z.union([PlayableOut, z.strictObject({}).describe('nothing is playing')]),
  run: async (_args, { state, signal }) => {
    const body = await state.client.request<{ item?: ApiTrack | ApiEpisode | null } | undefined>({
      path: '/me/player/currently-playing',
      query: { additional_types: 'track,episode' },
      signal,
    });
    return body?.item ? toPlayable(body.item) : {};
  },
});

const getDevices = spotifyAction({
  name: 'get_devices',
  summary: 'Lists the devices Spotify can play on.',
  params: {},
  result: z.array(DeviceOut),
  run: async (_args, { state, signal }) => (await listDevices(state, signal)).map(toDevice),
});

const TimeArg = z.union([z.number(), z.string(), z.date()]).nullable().optional();

function toMs(value: number | string | Date, name: string): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return Math.round(value * 1000);
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `history: "${name}" must be an ISO datetime (2026-09-01T12:00:00Z) or UNIX seconds; got "${value}"`,
    );
  }
  return ms;
}

const history = spotifyAction({
  name: 'history',
  summary: 'Returns recently played tracks, newest first, each with played_at and context_uri.',
  description: 'Spotify keeps only the 50 most recent plays; episodes are not listed.',
  params: {
    limit: z.number().int().min(1).max(50).default(20).describe('how many plays, 1 to 50'),
    before: TimeArg.describe(
      'only plays before this time: datetime, ISO datetime string or UNIX seconds (not with after)',
    ),
    after: TimeArg.describe(
      'only plays after this time: datetime, ISO datetime string or UNIX seconds (not with before)',
    ),
  },
  result: z.array(HistoryOut),
  run: async ({ limit, before, after }, { state, signal }): Promise<HistoryRow[]> => {
    if (before != null && after != null) {
      throw new PipitError('INVALID_ARGUMENTS', 'history: give "before" or "after", not both');
    }
    const body = await state.client.request<{
      items?: { track?: ApiTrack; played_at?: string; context?: { uri?: string } | null }[];
    }>({
      path: '/me/player/recently-played',
      query: {
        limit,
        before: before != null ? toMs(before, 'before') : undefined,
        after: after != null ? toMs(after, 'after') : undefined,
      },
      signal,
    });
    return (body?.items ?? [])
      .filter((i) => i.track)
      .map((i) => ({
        ...toTrack(i.track!),
        played_at: i.played_at ?? '',
        context_uri: i.context?.uri ?? null,
      }));
  },
});

/** status, current_track, get_devices, history. */
export const statusActions = [status, currentTrack, getDevices, history];
