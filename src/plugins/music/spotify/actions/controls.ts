import { z } from 'zod';
import { DeviceParam, playerCommand, stateOn } from '../player.ts';
import { parseResource } from '../resources.ts';
import { resolveDevice, spotifyAction } from '../state.ts';

const next = spotifyAction({
  name: 'next',
  summary: 'Skips to the next track.',
  params: { device: DeviceParam },
  run: async ({ device }, { state, signal }) => {
    const deviceId = await resolveDevice(state, device, signal);
    await playerCommand(state, { method: 'POST', path: '/me/player/next' }, deviceId, signal);
  },
});

const previous = spotifyAction({
  name: 'previous',
  summary: 'Skips to the previous track (Spotify restarts the current one when past 3 s).',
  params: { device: DeviceParam },
  run: async ({ device }, { state, signal }) => {
    const deviceId = await resolveDevice(state, device, signal);
    await playerCommand(state, { method: 'POST', path: '/me/player/previous' }, deviceId, signal);
  },
});

const seek = spotifyAction({
  name: 'seek',
  summary: 'Sets the playback position in the current track.',
  params: {
    position: z.number().min(0).describe('position in seconds (fractions allowed)'),
    device: DeviceParam,
  },
  run: async ({ position, device }, { state, signal }) => {
    const deviceId = await resolveDevice(state, device, signal);
    await playerCommand(
      state,
      {
        method: 'PUT',
        path: '/me/player/seek',
        query: { position_ms: Math.round(position * 1000) },
      },
      deviceId,
      signal,
    );
  },
});

const setVolume = spotifyAction({
  name: 'set_volume',
  summary: 'Sets the volume of a device.',
  params: {
    volume: z.number().int().min(0).max(100).describe('volume percentage, 0 to 100'),
    device: DeviceParam,
  },
  run: async ({ volume, device }, { state, signal }) => {
    const deviceId = await resolveDevice(state, device, signal);
    await playerCommand(
      state,
      { method: 'PUT', path: '/me/player/volume', query: { volume_percent: volume } },
      deviceId,
      signal,
    );
  },
});

const add = spotifyAction({
  name: 'add',
  summary: 'Adds a track or an episode to the playing queue.',
  params: {
    resource: z.string().min(1).describe('URI or open.spotify.com link of a track or episode'),
    device: DeviceParam,
  },
  run: async ({ resource, device }, { state, signal }) => {
    const res = parseResource(resource, { types: ['track', 'episode'], what: 'resource' });
    const deviceId = await resolveDevice(state, device, signal);
    await playerCommand(
      state,
      { method: 'POST', path: '/me/player/queue', query: { uri: res.uri } },
      deviceId,
      signal,
    );
  },
});

const ModeValue = z
  .boolean()
  .nullable()
  .optional()
  .describe('true = on, false = off; none toggles the current setting');

const random = spotifyAction({
  name: 'random',
  summary: 'Sets shuffle on or off; without a value toggles it. Returns the new setting.',
  params: { value: ModeValue, device: DeviceParam },
  result: z.object({ random: z.boolean() }),
  run: async ({ value, device }, { state, signal }) => {
    const deviceId = await resolveDevice(state, device, signal);
    let on = value;
    if (on === undefined || on === null) {
      const { playback } = await stateOn(state, deviceId, signal);
      on = !(playback?.shuffle_state ?? false);
    }
    await playerCommand(
      state,
      { method: 'PUT', path: '/me/player/shuffle', query: { state: on } },
      deviceId,
      signal,
    );
    return { random: on };
  },
});

const repeat = spotifyAction({
  name: 'repeat',
  summary:
    'Sets repeat (of the album/playlist) on or off; without a value toggles it. Returns the new setting.',
  description: 'On means Spotify\'s "context" repeat; a "track" repeat set elsewhere counts as on.',
  params: { value: ModeValue, device: DeviceParam },
  result: z.object({ repeat: z.boolean() }),
  run: async ({ value, device }, { state, signal }) => {
    const deviceId = await resolveDevice(state, device, signal);
    let on = value;
    if (on === undefined || on === null) {
      const { playback } = await stateOn(state, deviceId, signal);
      on = (playback?.repeat_state ?? 'off') === 'off';
    }
    await playerCommand(
      state,
      { method: 'PUT', path: '/me/player/repeat', query: { state: on ? 'context' : 'off' } },
      deviceId,
      signal,
    );
    return { repeat: on };
  },
});

/** next, previous, seek, set_volume, add, random, repeat. */
export const controlActions = [next, previous, seek, setVolume, add, random, repeat];
