import { afterAll, beforeAll, expect, test } from 'vitest';
import { Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(() => h.close());

test('smoke', async () => {
  expect((await h.call('GET', '/me')).status).toBe(200);
  expect((await h.call('GET', '/me/player')).status).toBe(204);
  expect((await h.call('GET', '/me/player/devices')).status).toBe(200);
  const r = await h.call('PUT', '/me/player/play', { query: { device_id: h.seed.deviceIds.speaker }, body: { context_uri: `spotify:playlist:${h.seed.bigPlaylistId}`, offset: { position: 3 } } });
  expect(r.status).toBe(204);
  expect((await h.call('GET', '/me/player')).json.is_playing).toBe(true);
  expect((await h.call('GET', '/me/player/currently-playing')).status).toBe(200);
  expect((await h.call('GET', '/me/player/queue')).status).toBe(200);
  expect((await h.call('GET', '/me/player/recently-played')).status).toBe(200);
  expect((await h.call('GET', `/playlists/${h.seed.bigPlaylistId}`)).status).toBe(200);
  expect((await h.call('GET', `/playlists/${h.seed.bigPlaylistId}/items`)).status).toBe(200);
  expect((await h.call('GET', '/me/playlists')).status).toBe(200);
  expect((await h.call('GET', '/me/albums')).status).toBe(200);
  expect((await h.call('GET', '/me/episodes')).status).toBe(200);
  expect((await h.call('GET', '/me/shows')).status).toBe(200);
  expect((await h.call('GET', '/me/tracks')).status).toBe(200);
  expect((await h.call('GET', '/search', { query: { q: 'doxy', type: 'track,album,artist,playlist,show,episode,audiobook' } })).status).toBe(200);
  expect((await h.call('GET', '/me/tracks', { query: { limit: 51 } })).json).toEqual({ error: { status: 400, message: 'Invalid limit' } });
});
