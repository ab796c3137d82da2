import { describe, expect, test } from 'vitest';
import type { Harness } from './support/harness.ts';
import { useHarness } from './support/harness.ts';
import { playerHelpers } from './support/player-helpers.ts';

let h: Harness;
useHarness((harness) => (h = harness));

const { ctl, duration, speaker, playlistUris, playRoadTrip } = playerHelpers(() => h);

describe('navigation', () => {
  test('next takes the queue first, then continues the context', async () => {
    await playRoadTrip();
    const uris = playlistUris(h.seed.roadTripPlaylistId);
    const episode = uris.find((u) => u.includes(':episode:'))!;
    expect((await h.call('POST', '/me/player/queue', { query: { uri: episode } })).status).toBe(
      204,
    );
    const queue = (await h.call('GET', '/me/player/queue')).json;
    expect(queue.currently_playing.uri).toBe(uris[0]);
    expect(queue.queue[0].uri).toBe(episode);
    expect(queue.queue[1].uri).toBe(uris[1]);
    expect(queue.queue).toHaveLength(21);
    await h.call('POST', '/me/player/next');
    expect((await h.call('GET', '/me/player')).json).toMatchObject({
      item: { uri: episode },
      currently_playing_type: 'episode',
    });
    await h.call('POST', '/me/player/next');
    expect((await h.call('GET', '/me/player')).json.item.uri).toBe(uris[1]);
  });

  test('previous restarts after 3 s, otherwise steps back', async () => {
    await playRoadTrip({ offset: { position: 1 } });
    const uris = playlistUris(h.seed.roadTripPlaylistId);
    ctl().advanceClock(5000);
    await h.call('POST', '/me/player/previous');
    expect((await h.call('GET', '/me/player')).json).toMatchObject({
      item: { uri: uris[1] },
      progress_ms: 0,
    });
    await h.call('POST', '/me/player/previous');
    expect((await h.call('GET', '/me/player')).json.item.uri).toBe(uris[0]);
  });

  test('seek: required, non-negative, past the end = next', async () => {
    await playRoadTrip();
    const uris = playlistUris(h.seed.roadTripPlaylistId);
    expect((await h.call('PUT', '/me/player/seek')).json.error.message).toBe(
      'Required parameter position_ms missing',
    );
    expect((await h.call('PUT', '/me/player/seek', { query: { position_ms: -1 } })).status).toBe(
      400,
    );
    await h.call('PUT', '/me/player/seek', { query: { position_ms: 30_000 } });
    expect((await h.call('GET', '/me/player')).json.progress_ms).toBe(30_000);
    await h.call('PUT', '/me/player/seek', { query: { position_ms: duration(uris[0]!) } });
    expect((await h.call('GET', '/me/player')).json.item.uri).toBe(uris[1]);
  });

  test('repeat track replays the item and records it', async () => {
    await playRoadTrip();
    const first = playlistUris(h.seed.roadTripPlaylistId)[0]!;
    expect(
      (await h.call('PUT', '/me/player/repeat', { query: { state: 'sometimes' } })).status,
    ).toBe(400);
    await h.call('PUT', '/me/player/repeat', { query: { state: 'track' } });
    ctl().advanceClock(duration(first) + 500);
    expect((await h.call('GET', '/me/player')).json).toMatchObject({
      item: { uri: first },
      progress_ms: 500,
      repeat_state: 'track',
    });
    expect(ctl().player().history.at(-1)!.uri).toBe(first);
  });

  test('shuffle keeps the current item and reorders the rest', async () => {
    await playRoadTrip();
    const uris = playlistUris(h.seed.roadTripPlaylistId);
    expect((await h.call('PUT', '/me/player/shuffle', { query: { state: 'maybe' } })).status).toBe(
      400,
    );
    await h.call('PUT', '/me/player/shuffle', { query: { state: true } });
    const state = (await h.call('GET', '/me/player')).json;
    expect(state).toMatchObject({ shuffle_state: true, item: { uri: uris[0] } });
    const upcoming = (await h.call('GET', '/me/player/queue')).json.queue.map(
      (t: { uri: string }) => t.uri,
    );
    expect(upcoming).not.toEqual(uris.slice(1, 21));
    expect(new Set(upcoming).size).toBeGreaterThan(15);
  });

  test('volume: 0..100, and 403 VOLUME_CONTROL_DISALLOW on a device without volume control', async () => {
    await playRoadTrip();
    expect(
      (await h.call('PUT', '/me/player/volume', { query: { volume_percent: 101 } })).status,
    ).toBe(400);
    expect(
      (await h.call('PUT', '/me/player/volume', { query: { volume_percent: 15 } })).status,
    ).toBe(204);
    expect((await h.call('GET', '/me/player')).json.device.volume_percent).toBe(15);
    const phone = await h.call('PUT', '/me/player/volume', {
      query: { volume_percent: 15, device_id: h.seed.deviceIds.phone },
    });
    expect(phone.json).toEqual({
      error: {
        status: 403,
        message: 'Player command failed: Cannot control device volume',
        reason: 'VOLUME_CONTROL_DISALLOW',
      },
    });
  });

  test('queue: bad URIs are 400, unknown ones 404', async () => {
    await playRoadTrip();
    expect(
      (
        await h.call('POST', '/me/player/queue', {
          query: { uri: 'spotify:album:4iV5W9uYEdYUVa79Axb7Rh' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await h.call('POST', '/me/player/queue', {
          query: { uri: 'spotify:track:4iV5W9uYEdYUVa79Axb7Rh' },
        })
      ).status,
    ).toBe(404);
  });

  test('the active device going offline ends the session', async () => {
    await playRoadTrip();
    ctl().updateDevice(speaker(), { available: false });
    expect((await h.call('GET', '/me/player')).status).toBe(204);
    expect((await h.call('GET', '/me/player/devices')).json.devices).toHaveLength(2);
    expect((await h.call('POST', '/me/player/next')).json.error.reason).toBe('NO_ACTIVE_DEVICE');
  });

  test('player commands can answer 200 with an opaque text body', async () => {
    ctl().configure({ playerSuccess: '200-text' });
    await h.call('PUT', '/me/player', { body: { device_ids: [speaker()] } });
    const res = await h.call('PUT', '/me/player/shuffle', { query: { state: false } });
    ctl().configure({ playerSuccess: 204 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^[0-9A-Za-z]{27}$/);
  });
});

describe('recently played cursors', () => {
  test('pages backwards with before= until the 50-item window is exhausted', async () => {
    const seen: string[] = [];
    let next: string | null = '/me/player/recently-played?limit=7';
    let pages = 0;
    while (next) {
      const page: {
        items: { played_at: string }[];
        next: string | null;
        cursors: { before: string; after: string };
      } = (await h.call('GET', next)).json;
      pages++;
      expect(page.cursors.before).toMatch(/^\d+$/);
      expect(Number(page.cursors.after)).toBeGreaterThan(Number(page.cursors.before));
      seen.push(...page.items.map((i: { played_at: string }) => i.played_at));
      next = page.next;
    }
    expect(pages).toBe(5);
    expect(seen).toHaveLength(30);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  test('after= returns only newer plays; both cursors is 400; nothing left = null cursors', async () => {
    const all = (await h.call('GET', '/me/player/recently-played', { query: { limit: 50 } })).json
      .items;
    const pivot = Date.parse(all[10].played_at);
    const newer = (
      await h.call('GET', '/me/player/recently-played', { query: { after: pivot, limit: 50 } })
    ).json;
    expect(newer.items).toHaveLength(10);
    expect(
      (await h.call('GET', '/me/player/recently-played', { query: { after: 1, before: 2 } }))
        .status,
    ).toBe(400);
    const empty = (await h.call('GET', '/me/player/recently-played', { query: { before: 1000 } }))
      .json;
    expect(empty).toMatchObject({ items: [], next: null, cursors: null });
  });
});
