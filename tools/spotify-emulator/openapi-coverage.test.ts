import { expect, test } from 'vitest';
import { SERVED_OPERATIONS } from './index.ts';
import { REMOVED_OPERATIONS } from './routes/removed.ts';
import type { Harness } from './support/harness.ts';
import { validator, useHarness } from './support/harness.ts';

let h: Harness;
useHarness((harness) => (h = harness), { options: { bigPlaylistSize: 300 }, reset: false });

test('every served operation exists, non-deprecated, in openapi.yaml; removed ones are the deprecated ones', () => {
  for (const key of SERVED_OPERATIONS) {
    const [method, path] = key.split(' ') as [string, string];
    const concrete = path.replace(/\{[^}]+\}/g, '4iV5W9uYEdYUVa79Axb7Rh');
    const op = validator.operation(method, concrete);
    expect(`${op.method} /v1${op.template}`).toBe(key);
    expect(op.op.deprecated, key).toBeUndefined();
  }
  for (const [method, path] of REMOVED_OPERATIONS) {
    const op = validator.operation(
      method,
      `/v1${path.replace(/\{[^}]+\}/g, '4iV5W9uYEdYUVa79Axb7Rh')}`,
    );
    expect(op.op.deprecated, `${method} ${path}`).toBe(true);
  }
});

test('a tour of every served operation: each answers 2xx and validates against openapi.yaml', async () => {
  const s = h.seed;
  const playlist = s.roadTripPlaylistId;
  const track = h.emu.control.state.playlists.byId.get(playlist)!.items[0]!.uri;
  const calls: [string, string, Parameters<Harness['call']>[2]?][] = [
    ['GET', '/me'],
    ['GET', '/me/player/devices'],
    ['GET', '/me/player'],
    ['PUT', '/me/player', { body: { device_ids: [s.deviceIds.speaker], play: false } }],
    [
      'PUT',
      '/me/player/play',
      {
        body: {
          context_uri: `spotify:playlist:${playlist}`,
          offset: { position: 0 },
          position_ms: 0,
        },
      },
    ],
    [
      'GET',
      '/me/player/currently-playing',
      { query: { market: 'from_token', additional_types: 'track,episode' } },
    ],
    ['POST', '/me/player/queue', { query: { uri: track } }],
    ['GET', '/me/player/queue'],
    ['POST', '/me/player/next'],
    ['POST', '/me/player/previous'],
    ['PUT', '/me/player/seek', { query: { position_ms: 1000 } }],
    ['PUT', '/me/player/repeat', { query: { state: 'context' } }],
    ['PUT', '/me/player/shuffle', { query: { state: false } }],
    ['PUT', '/me/player/volume', { query: { volume_percent: 30 } }],
    ['PUT', '/me/player/pause'],
    ['GET', '/me/player/recently-played', { query: { limit: 5 } }],
    ['GET', '/me/playlists', { query: { limit: 5, offset: 0 } }],
    [
      'POST',
      '/me/playlists',
      { body: { name: 'Tour', public: false, collaborative: false, description: 'd' } },
    ],
    [
      'GET',
      `/playlists/${playlist}`,
      { query: { market: 'SE', additional_types: 'track,episode' } },
    ],
    [
      'PUT',
      `/playlists/${playlist}`,
      { body: { name: 'Road Trip 2', public: true, collaborative: false, description: 'x' } },
    ],
    ['GET', `/playlists/${playlist}/items`, { query: { limit: 50, offset: 0 } }],
    ['POST', `/playlists/${playlist}/items`, { body: { uris: [track], position: 0 } }],
    [
      'PUT',
      `/playlists/${playlist}/items`,
      { body: { range_start: 0, insert_before: 2, range_length: 1 } },
    ],
    ['DELETE', `/playlists/${playlist}/items`, { body: { items: [{ uri: track }] } }],
    ['GET', '/me/tracks', { query: { limit: 2, market: 'SE' } }],
    ['GET', '/me/albums', { query: { limit: 2 } }],
    ['GET', '/me/episodes', { query: { limit: 2 } }],
    ['GET', '/me/shows', { query: { limit: 2 } }],
    ['PUT', '/me/library', { query: { uris: track } }],
    ['GET', '/me/library/contains', { query: { uris: track } }],
    ['DELETE', '/me/library', { query: { uris: track } }],
    [
      'GET',
      '/search',
      {
        query: {
          q: 'harbor',
          type: 'album,artist,playlist,track,show,episode,audiobook',
          limit: 10,
          offset: 0,
        },
      },
    ],
  ];
  for (const [method, path, options] of calls) {
    const res = await h.call(method, path, options);
    expect(res.status, `${method} ${path}: ${res.text}`).toBeGreaterThanOrEqual(200);
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  }
  const missing = SERVED_OPERATIONS.filter(
    (key) => ![...(validator.covered.get(key) ?? [])].some((status) => status < 300),
  );
  expect(missing).toEqual([]);
});
