import { z } from 'zod';
import type { ApiDevice, ApiEpisode, ApiTrack } from './mappers.ts';
import type { SpotifyState } from './state.ts';

/** The `device` parameter shared by player actions. */
export const DeviceParam = z
  .string()
  .nullable()
  .optional()
  .describe('device ID or name (case-insensitive); default: the currently active device');

/** `GET /me/player`, the fields the plugin reads. */
export interface PlaybackState {
  device?: ApiDevice;
  is_playing?: boolean;
  progress_ms?: number | null;
  item?: ApiTrack | ApiEpisode | null;
  shuffle_state?: boolean;
  repeat_state?: 'off' | 'track' | 'context';
  context?: { uri?: string } | null;
}

/**
 * The playback state, or undefined when nothing is active (Spotify answers 204).
 *
 * @example
 * const playback = await playbackState(state, signal);
 */
export async function playbackState(
  state: SpotifyState,
  signal?: AbortSignal,
): Promise<PlaybackState | undefined> {
  return state.client.request<PlaybackState | undefined>({
    path: '/me/player',
    query: { additional_types: 'track,episode' },
    signal,
  });
}

/**
 * The playback state as seen from `deviceId`: a device other than the active one is not playing.
 *
 * @example
 * const { playing } = await stateOn(state, deviceId, signal);
 */
export async function stateOn(
  state: SpotifyState,
  deviceId: string | undefined,
  signal?: AbortSignal,
): Promise<{ playing: boolean; playback: PlaybackState | undefined; here: boolean }> {
  const playback = await playbackState(state, signal);
  const here =
    playback !== undefined && (deviceId === undefined || playback.device?.id === deviceId);
  return {
    playing: here && playback.is_playing === true,
    playback: here ? playback : undefined,
    here,
  };
}

/**
 * Sends a player command to a device (by ID or name; the active one when omitted).
 *
 * @example
 * await playerCommand(state, { method: 'POST', path: '/me/player/next' }, 'Kitchen', signal);
 */
export async function playerCommand(
  state: SpotifyState,
  cmd: {
    method: 'PUT' | 'POST';
    path: string;
    query?: Record<string, string | number | boolean | undefined>;
    body?: unknown;
  },
  deviceId: string | undefined,
  signal?: AbortSignal,
): Promise<void> {
  await state.client.request({
    ...cmd,
    query: { ...cmd.query, device_id: deviceId },
    player: true,
    signal,
  });
}
