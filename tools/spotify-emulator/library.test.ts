import { describe, expect, test } from 'vitest';
import type { Harness } from './support/harness.ts';
import { useHarness } from './support/harness.ts';

let h: Harness;
useHarness((harness) => (h = harness));

const catalog = () => h.emu.control.state.catalog;
const unsavedTracks = (n: number) => {
  const saved = h.emu.control.state.user('pipit-tester').library.tracks;
  return [...catalog().tracks.keys()]
    .filter((id) => !saved.has(id))
    .slice(0, n)
    .map((id) => `spotify:track:${id}`);
};

describe('saved lists', () => {
  test.each([
    ['/me/tracks', 'track', 120],
    ['/me/albums', 'album', 25],
    ['/me/shows', 'show', 5],
    ['/me/episodes', 'episode', 12],
  ])('%s pages newest first with added_at', async (path, key, total) => {
    const page = (await h.call('GET', path, { query: { limit: 3 } })).json;
    expect(page).toMatchObject({ total, limit: 3, offset: 0, previous: null });
    expect(page.items[0][key].type).toBe(key);
    expect(page.items[0].added_at >= page.items[1].added_at).toBe(true);
    expect(page.next).toBe(`${h.emu.apiUrl}${path}?offset=3&limit=3`);
    expect((await h.call('GET', path, { query: { limit: 51 } })).status).toBe(400);
  });

  test('saved episodes need user-read-playback-position too', async () => {
    expect(
      (await h.call('GET', '/me/episodes', { token: h.tokenFor(['user-library-read']) })).status,
    ).toBe(403);
    expect(
      (await h.call('GET', '/me/tracks', { token: h.tokenFor(['user-library-read']) })).status,
    ).toBe(200);
  });

  test('paging through all saved tracks with next', async () => {
    let next: string | null = `${h.emu.apiUrl}/me/tracks?limit=50`;
    const ids: string[] = [];
    while (next) {
      const page: { items: { track: { id: string } }[]; next: string | null } = (
        await h.call('GET', next)
      ).json;
      ids.push(...page.items.map((i) => i.track.id));
      next = page.next;
    }
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
  });
});

describe('/me/library', () => {
  test('save, contains and remove with mixed types', async () => {
    const [track] = unsavedTracks(1);
    const album = `spotify:album:${h.seed.fixedAlbumId}`;
    const playlist = `spotify:playlist:${h.seed.spotifyOwnedPlaylistId}`;
    const uris = [track!, album, playlist].join(',');
    expect((await h.call('GET', '/me/library/contains', { query: { uris } })).json).toEqual([
      false,
      false,
      false,
    ]);
    const saved = await h.call('PUT', '/me/library', { query: { uris } });
    expect(saved.status).toBe(200);
    expect(saved.text).toBe('');
    expect((await h.call('GET', '/me/library/contains', { query: { uris } })).json).toEqual([
      true,
      true,
      true,
    ]);
    expect(
      (await h.call('GET', '/me/tracks', { query: { limit: 1 } })).json.items[0].track.uri,
    ).toBe(track);
    expect(
      (await h.call('DELETE', '/me/library', { query: { uris: `${track},${album}` } })).status,
    ).toBe(200);
    expect((await h.call('GET', '/me/library/contains', { query: { uris } })).json).toEqual([
      false,
      false,
      true,
    ]);
  });

  test('following and unfollowing a playlist changes /me/playlists', async () => {
    const id = h.seed.foreignPlaylistId;
    await h.call('DELETE', '/me/library', { query: { uris: `spotify:playlist:${id}` } });
    const list = (await h.call('GET', '/me/playlists', { query: { limit: 50 } })).json;
    expect(list.items.map((p: { id: string }) => p.id)).not.toContain(id);
    await h.call('PUT', '/me/library', { query: { uris: `spotify:playlist:${id}` } });
    expect((await h.call('GET', '/me/playlists', { query: { limit: 1 } })).json.items[0].id).toBe(
      id,
    );
  });

  test('at most 40 URIs; bad URIs and types are 400', async () => {
    const forty = unsavedTracks(41);
    expect(
      (await h.call('PUT', '/me/library', { query: { uris: forty.slice(0, 40).join(',') } }))
        .status,
    ).toBe(200);
    const tooMany = await h.call('PUT', '/me/library', { query: { uris: forty.join(',') } });
    expect(tooMany.status).toBe(400);
    expect(
      (await h.call('GET', '/me/library/contains', { query: { uris: forty.join(',') } })).status,
    ).toBe(400);
    expect((await h.call('PUT', '/me/library')).status).toBe(400);
    expect(
      (
        await h.call('PUT', '/me/library', {
          query: { uris: 'spotify:chapter:4iV5W9uYEdYUVa79Axb7Rh' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await h.call('PUT', '/me/library', { query: { uris: 'spotify:track:short' } })).json.error
        .message,
    ).toBe('Invalid base62 id');
  });

  test('scopes follow the URI type', async () => {
    const [track] = unsavedTracks(1);
    const token = h.tokenFor(['user-library-modify']);
    expect((await h.call('PUT', '/me/library', { token, query: { uris: track! } })).status).toBe(
      200,
    );
    const playlist = `spotify:playlist:${h.seed.foreignPlaylistId}`;
    expect(
      (await h.call('PUT', '/me/library', { token, query: { uris: playlist } })).json.error.message,
    ).toBe('Insufficient client scope');
  });
});
