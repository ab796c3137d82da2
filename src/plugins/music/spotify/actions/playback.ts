import { z } from 'zod';
import { isPipitError, PipitError } from '../../../../core/errors.ts';
import { DeviceParam, playerCommand, stateOn } from '../player.ts';
import { parseResource } from '../resources.ts';
import { resolveDevice, spotifyAction } from '../state.ts';
import type { SpotifyState } from '../state.ts';

async function resume(state: SpotifyState, deviceId: string | undefined, signal: AbortSignal) {
  try {
    await playerCommand(state, { method: 'PUT', path: '/me/player/play' }, deviceId, signal);
  } catch (err) {
    // Resuming what already plays is "Restriction violated" for Spotify, but done for the user.
    if (isPipitError(err) && err.details.status === 403) {
      const { playing } = await stateOn(state, deviceId, signal);
      if (playing) return;
    }
    throw err;
  }
}

async function pauseNow(state: SpotifyState, deviceId: string | undefined, signal: AbortSignal) {
  await playerCommand(state, { method: 'PUT', path: '/me/player/pause' }, deviceId, signal);
}

const play = spotifyAction({
  name: 'play',
  summary: 'Plays a resource, or resumes playback when none is given.',
  description:
    'A track or episode URI plays that item; an album, playlist, artist or show URI plays that context from its start. Without a resource the playback state is set to play (resuming; already playing is fine).',
  params: {
    resource: z
      .string()
      .nullable()
      .optional()
      .describe(
        'URI or open.spotify.com link of a track, episode, album, playlist, artist or show; none = resume',
      ),
    device: DeviceParam,
  },
  run: async ({ resource, device }, { state, signal }) => {
    const res = resource
      ? parseResource(resource, {
          types: ['track', 'episode', 'album', 'playlist', 'artist', 'show'],
          what: 'resource',
        })
      : undefined;
    const deviceId = await resolveDevice(state, device, signal);
    if (!res) return resume(state, deviceId, signal);
    const body =
      res.type === 'track' || res.type === 'episode'
        ? { uris: [res.uri] }
        : { context_uri: res.uri };
    await playerCommand(state, { method: 'PUT', path: '/me/player/play', body }, deviceId, signal);
  },
});

const pause = spotifyAction({
  name: 'pause',
  summary: 'Toggles pause: pauses when playing, resumes otherwise.',
  params: { device: DeviceParam },
  run: async ({ device }, { state, signal }) => {
    const deviceId = await resolveDevice(state, device, signal);
    const { playing } = await stateOn(state, deviceId, signal);
    if (playing) await pauseNow(state, deviceId, signal);
    else await resume(state, deviceId, signal);
  },
});

const stop = spotifyAction({
  name: 'stop',
  summary: 'Stops playback: pauses when playing, does nothing otherwise (it never resumes).',
  description:
    'Spotify has no stop: this pauses, and the provider clears paused sessions itself. Extra arguments are ignored.',
  params: {},
  extraArgs: true,
  run: async (_args, { state, signal }) => {
    const { playing } = await stateOn(state, undefined, signal);
    if (playing) await pauseNow(state, undefined, signal);
  },
});

const playIfPausedParams = { device: DeviceParam };
const playIfPausedRun = async (
  { device }: { device?: string | null | undefined },
  { state, signal }: { state: SpotifyState; signal: AbortSignal },
) => {
  const deviceId = await resolveDevice(state, device, signal);
  const { playing } = await stateOn(state, deviceId, signal);
  if (!playing) await resume(state, deviceId, signal);
};

const playIfPaused = spotifyAction({
  name: 'play_if_paused',
  summary: 'Resumes playback only when it is paused; does nothing while playing.',
  params: playIfPausedParams,
  run: playIfPausedRun,
});

const playIfPausedOrStopped = spotifyAction({
  name: 'play_if_paused_or_stopped',
  summary: 'Alias of play_if_paused (Spotify has no separate stopped state).',
  params: playIfPausedParams,
  run: playIfPausedRun,
});

const startOrTransfer = spotifyAction({
  name: 'start_or_transfer_playback',
  summary: 'Starts playback on a device, transferring the session to it from another device.',
  params: {
    device: z.string().min(1).describe('device ID or name (case-insensitive) to play on'),
  },
  run: async ({ device }, { state, signal }) => {
    const deviceId = await resolveDevice(state, device, signal);
    if (!deviceId) throw new PipitError('INVALID_ARGUMENTS', 'a device is required');
    await state.client.request({
      method: 'PUT',
      path: '/me/player',
      body: { device_ids: [deviceId], play: true },
      player: true,
      signal,
    });
  },
});

/** play, pause, stop, play_if_paused, play_if_paused_or_stopped, start_or_transfer_playback. */
export const playbackActions = [
  play,
  pause,
  stop,
  playIfPaused,
  playIfPausedOrStopped,
  startOrTransfer,
];
