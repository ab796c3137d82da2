import { describe, expect, test } from 'vitest';
import type { Harness } from './support/harness.ts';
import { playerHelpers } from './support/player-helpers.ts';
import { ALL, useHarness } from './support/harness.ts';

let h: Harness;
useHarness((harness) => (h = harness));

const { ctl, duration, speaker, playlistUris, playRoadTrip } = playerHelpers(() => h);

describe('no active device', () => {
  test('state endpoints answer 204 with an empty body', async () => {
    for (const path of ['/me/player', '/me/player/currently-playing']) {
      const res = await h.call('GET', path);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    }
  });

  test('commands without device_id are 404 NO_ACTIVE_DEVICE, including queue', async () => {
    const expected = {
      error: {
        status: 404,
        message: 'Player command failed: No active device found',
        reason: 'NO_ACTIVE_DEVICE',
      },
    };
    expect((await h.call('PUT', '/me/player/pause')).json).toEqual(expected);
    expect((await h.call('POST', '/me/player/next')).json).toEqual(expected);
    const track = playlistUris(h.seed.roadTripPlaylistId)[0]!;
    expect((await h.call('POST', '/me/player/queue', { query: { uri: track } })).json).toEqual(
      expected,
    );
  });

  test('an unknown device_id is 404 "Device not found"', async () => {
    const res = await h.call('PUT', '/me/player/play', { query: { device_id: 'f'.repeat(40) } });
    expect(res.json).toEqual({ error: { status: 404, message: 'Device not found' } });
  });

  test('a free user gets 403 PREMIUM_REQUIRED on commands but can read state', async () => {
    const token = h.tokenFor(ALL, 'free-tester');
    const res = await h.call('PUT', '/me/player/play', { token, query: { device_id: speaker() } });
    expect(res.json).toEqual({
      error: {
        status: 403,
        message: 'Player command failed: Premium required',
        reason: 'PREMIUM_REQUIRED',
      },
    });
    expect((await h.call('GET', '/me/player/devices', { token })).status).toBe(200);
  });
});

describe('transfer', () => {
  test('validates device_ids and activates the device', async () => {
    expect((await h.call('PUT', '/me/player', { body: {} })).json.error.message).toBe(
      'Required field device_ids missing',
    );
    expect(
      (
        await h.call('PUT', '/me/player', {
          body: { device_ids: [speaker(), h.seed.deviceIds.laptop] },
        })
      ).status,
    ).toBe(400);
    expect(
      (await h.call('PUT', '/me/player', { body: { device_ids: ['0'.repeat(40)] } })).json.error
        .message,
    ).toBe('Device not found');
    expect((await h.call('PUT', '/me/player', { body: { device_ids: [speaker()] } })).status).toBe(
      204,
    );
    const devices = (await h.call('GET', '/me/player/devices')).json.devices;
    expect(
      devices.filter((d: { is_active: boolean }) => d.is_active).map((d: { id: string }) => d.id),
    ).toEqual([speaker()]);
    const state = await h.call('GET', '/me/player');
    expect(state.json).toMatchObject({
      is_playing: false,
      item: null,
      device: { id: speaker(), is_active: true },
    });
  });

  test('moves a running session; play:true starts a paused one', async () => {
    await playRoadTrip();
    await h.call('PUT', '/me/player/pause');
    await h.call('PUT', '/me/player', {
      body: { device_ids: [h.seed.deviceIds.laptop], play: true },
    });
    const state = (await h.call('GET', '/me/player')).json;
    expect(state.device.id).toBe(h.seed.deviceIds.laptop);
    expect(state.is_playing).toBe(true);
  });
});

describe('play and progress', () => {
  test('context_uri + offset.position starts there; progress follows the virtual clock', async () => {
    await playRoadTrip({ offset: { position: 2 } });
    const uris = playlistUris(h.seed.roadTripPlaylistId);
    let state = (await h.call('GET', '/me/player')).json;
    expect(state.item.uri).toBe(uris[2]);
    expect(state.context).toMatchObject({
      type: 'playlist',
      uri: `spotify:playlist:${h.seed.roadTripPlaylistId}`,
    });
    expect(state.progress_ms).toBe(0);
    ctl().advanceClock(12_345);
    state = (await h.call('GET', '/me/player/currently-playing')).json;
    expect(state.progress_ms).toBe(12_345);
    expect(state).not.toHaveProperty('device');
  });

  test('uris + offset.uri + position_ms; position past the end skips to the next item', async () => {
    const uris = playlistUris(h.seed.bigPlaylistId).slice(0, 3);
    await h.call('PUT', '/me/player/play', {
      query: { device_id: speaker() },
      body: { uris, offset: { uri: uris[1] }, position_ms: 5000 },
    });
    let state = (await h.call('GET', '/me/player')).json;
    expect(state).toMatchObject({ item: { uri: uris[1] }, progress_ms: 5000, context: null });
    await h.call('PUT', '/me/player/play', { body: { uris, position_ms: duration(uris[0]!) + 1 } });
    state = (await h.call('GET', '/me/player')).json;
    expect(state.item.uri).toBe(uris[1]);
  });

  test('bad play requests are 400', async () => {
    const uris = playlistUris(h.seed.bigPlaylistId).slice(0, 2);
    const call = (body: unknown) =>
      h.call('PUT', '/me/player/play', { query: { device_id: speaker() }, body });
    expect((await call({ uris, context_uri: `spotify:album:${h.seed.fixedAlbumId}` })).status).toBe(
      400,
    );
    expect((await call({ uris, offset: { position: 5 } })).status).toBe(400);
    expect(
      (
        await call({
          context_uri: `spotify:album:${h.seed.fixedAlbumId}`,
          offset: { uri: uris[0] },
        })
      ).status,
    ).toBe(400);
    expect((await call({ uris: ['spotify:track:bad'] })).json.error.message).toBe(
      'Invalid base62 id',
    );
  });

  test('resume with nothing loaded is 403 NO_SPECIFIC_TRACK', async () => {
    const res = await h.call('PUT', '/me/player/play', { query: { device_id: speaker() } });
    expect(res.json.error.reason).toBe('NO_SPECIFIC_TRACK');
  });

  test('pause freezes progress; pausing twice is a restriction unless strictRestrictions is off', async () => {
    await playRoadTrip();
    ctl().advanceClock(4000);
    expect((await h.call('PUT', '/me/player/pause')).status).toBe(204);
    ctl().advanceClock(60_000);
    expect((await h.call('GET', '/me/player')).json).toMatchObject({
      is_playing: false,
      progress_ms: 4000,
    });
    const again = await h.call('PUT', '/me/player/pause');
    expect(again.json).toEqual({
      error: {
        status: 403,
        message: 'Player command failed: Restriction violated',
        reason: 'UNKNOWN',
      },
    });
    ctl().configure({ strictRestrictions: false });
    expect((await h.call('PUT', '/me/player/pause')).status).toBe(204);
    expect((await h.call('PUT', '/me/player/play')).status).toBe(204);
    expect((await h.call('GET', '/me/player')).json.is_playing).toBe(true);
  });

  test('playing through items appends them to the history', async () => {
    await playRoadTrip();
    const uris = playlistUris(h.seed.roadTripPlaylistId);
    ctl().advanceClock(duration(uris[0]!) + duration(uris[1]!) + 1000);
    const state = (await h.call('GET', '/me/player')).json;
    expect(state.item.uri).toBe(uris[2]);
    expect(state.progress_ms).toBe(1000);
    const recent = (await h.call('GET', '/me/player/recently-played', { query: { limit: 2 } }))
      .json;
    expect(recent.items.map((i: { track: { uri: string } }) => i.track.uri)).toEqual([
      uris[1],
      uris[0],
    ]);
    expect(recent.items[0].context.uri).toBe(`spotify:playlist:${h.seed.roadTripPlaylistId}`);
  });

  test('the end of the context with repeat off stops playback; repeat context wraps', async () => {
    const uris = playlistUris(h.seed.bigPlaylistId).slice(0, 2);
    await h.call('PUT', '/me/player/play', { query: { device_id: speaker() }, body: { uris } });
    ctl().advanceClock(duration(uris[0]!) + duration(uris[1]!) + 10);
    expect((await h.call('GET', '/me/player')).json.is_playing).toBe(false);
    await h.call('PUT', '/me/player/play', { body: { uris } });
    await h.call('PUT', '/me/player/repeat', { query: { state: 'context' } });
    ctl().advanceClock(duration(uris[0]!) + duration(uris[1]!) + 10);
    expect((await h.call('GET', '/me/player')).json).toMatchObject({
      is_playing: true,
      repeat_state: 'context',
      item: { uri: uris[0] },
    });
  });
});
