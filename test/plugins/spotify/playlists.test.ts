import { describe, expect, it } from 'vitest';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { fails, ok, useAuthorizedSpotify } from './helpers.ts';

let emu: SpotifyEmulator;
let t: TestApp;

useAuthorizedSpotify((f) => ({ emu, t } = f), {
  emulator: { bigPlaylistSize: 1000 },
  config: { paging_concurrency: 4 },
});

const items = (id: string) => emu.control.state.playlists.byId.get(id)!.items.map((i) => i.uri);

async function tracks(n: number): Promise<string[]> {
  const found = (await ok(t, 'search', { query: 'a', limit: n })) as { uri: string }[];
  return found.map((f) => f.uri);
}

describe('reading playlists', () => {
  it('get_playlist returns every item with 1-based positions, pages fetched after the first', async () => {
    const id = emu.control.seed.bigPlaylistId;
    emu.control.clearRequests();
    const list = await ok(t, 'get_playlist', { playlist: `spotify:playlist:${id}` });
    expect(list).toMatchObject({ id, name: 'Everything', uri: `spotify:playlist:${id}` });
    expect(list.tracks).toHaveLength(1000);
    expect(list.tracks.map((x: { position: number }) => x.position)).toEqual(
      Array.from({ length: 1000 }, (_, i) => i + 1),
    );
    expect(list.tracks.map((x: { uri: string }) => x.uri)).toEqual(items(id));
    expect(list.tracks.some((x: { type: string }) => x.type === 'episode')).toBe(true);
    // 1 playlist request with 100 embedded items, then 18 pages of 50.
    expect(emu.control.requests({ path: `/v1/playlists/${id}` })).toHaveLength(1);
    expect(emu.control.requests({ path: `/v1/playlists/${id}/items` })).toHaveLength(18);
  });

  it('get_playlist by name and link; limit/offset only with tracks; with_tracks false is metadata', async () => {
    const id = emu.control.seed.roadTripPlaylistId;
    const page = await ok(t, 'get_playlist', { playlist: 'road trip', limit: 3, offset: 2 });
    expect(page.tracks.map((x: { position: number }) => x.position)).toEqual([3, 4, 5]);
    expect(page.tracks.map((x: { uri: string }) => x.uri)).toEqual(items(id).slice(2, 5));
    const meta = await ok(t, 'get_playlist', {
      playlist: `https://open.spotify.com/playlist/${id}`,
      with_tracks: false,
    });
    expect(meta).toMatchObject({ id, tracks: null, snapshot_id: expect.any(String) });
    expect(await fails(t, 'get_playlist', { playlist: id, with_tracks: false, limit: 2 })).toMatch(
      /apply to the items/,
    );
    expect(await fails(t, 'get_playlist', { playlist: 'No Such List' })).toMatch(
      /no playlist named "No Such List" among your 45 playlists/,
    );
    expect(
      await fails(t, 'get_playlist', { playlist: 'spotify:album:4iV5W9uYEdYUVa79Axb7Rh' }),
    ).toMatch(/only playlist/);
  });

  it('get_playlist of a followed foreign playlist has null tracks (hidden in Development Mode)', async () => {
    const list = await ok(t, 'get_playlist', { playlist: emu.control.seed.foreignPlaylistId });
    expect(list.tracks).toBeNull();
  });

  it('get_playlists lists all, honours limit/offset, filters by user', async () => {
    const all = (await ok(t, 'get_playlists')) as { name: string; owner: { id: string } }[];
    expect(all).toHaveLength(45);
    expect(all[0]).toMatchObject({ tracks: null, owner: { id: expect.any(String) } });
    const some = (await ok(t, 'get_playlists', { limit: 5, offset: 40 })) as unknown[];
    expect(some).toEqual(all.slice(40, 45));
    const mine = (await ok(t, 'get_playlists', { user: 'pipit-tester' })) as unknown[];
    expect(mine.length).toBe(all.filter((p) => p.owner.id === 'pipit-tester').length);
    expect(await fails(t, 'get_playlists', { user: 'other-tester' })).toMatch(
      /Development-Mode apps list the playlists of another user/,
    );
  });
});

describe('changing playlists', () => {
  it('create_playlist returns the playlist; follow/unfollow change the library', async () => {
    const created = await ok(t, 'create_playlist', { name: 'Fresh', description: 'new one' });
    expect(created).toMatchObject({
      name: 'Fresh',
      description: 'new one',
      public: false,
      tracks: [],
    });
    expect(emu.control.state.playlists.byId.get(created.id)).toBeDefined();
    await ok(t, 'unfollow_playlist', { playlist: 'Fresh' });
    const lib = () =>
      emu.control.state
        .user('pipit-tester')
        .library.playlists.list()
        .map((p) => p.id);
    expect(lib()).not.toContain(created.id);
    await ok(t, 'follow_playlist', { playlist: created.uri });
    expect(lib()).toContain(created.id);
    expect(emu.control.requests({ method: 'PUT', path: '/v1/me/library' })[0]!.query).toEqual({
      uris: `spotify:playlist:${created.id}`,
    });
  });

  it('add_to_playlist appends by default, inserts at 1-based positions, chunks by 100', async () => {
    const created = await ok(t, 'create_playlist', { name: 'Adds' });
    const uris = await tracks(3);
    await ok(t, 'add_to_playlist', { playlist: created.id, resources: uris.slice(0, 2) });
    await ok(t, 'add_to_playlist', { playlist: created.id, resources: uris[2], position: 1 });
    expect(items(created.id)).toEqual([uris[2], uris[0], uris[1]]);
    const many = await tracks(230);
    emu.control.clearRequests();
    await ok(t, 'add_to_playlist', { playlist: created.id, resources: many, position: 2 });
    expect(items(created.id)).toEqual([uris[2], ...many, uris[0], uris[1]]);
    const posts = emu.control.requests({
      method: 'POST',
      path: `/v1/playlists/${created.id}/items`,
    });
    expect(posts.map((p) => (p.body as { uris: string[] }).uris.length)).toEqual([100, 100, 30]);
    expect(await fails(t, 'add_to_playlist', { playlist: created.id, resources: ['x'] })).toMatch(
      /"x" is not a URI/,
    );
    expect(
      await fails(t, 'add_to_playlist', { playlist: created.id, resources: uris, position: 0 }),
    ).toMatch(/position/);
  });

  it('remove_from_playlist removes every copy, in chunks of 100', async () => {
    const id = emu.control.seed.bigPlaylistId;
    const before = items(id);
    const remove = [...new Set(before.slice(0, 150))];
    emu.control.clearRequests();
    await ok(t, 'remove_from_playlist', { playlist: id, resources: remove });
    const after = items(id);
    expect(after.some((u) => remove.includes(u))).toBe(false);
    expect(after).toEqual(before.filter((u) => !remove.includes(u)));
    const calls = emu.control.requests({ method: 'DELETE', path: `/v1/playlists/${id}/items` });
    expect(calls).toHaveLength(Math.ceil(remove.length / 100));
  });

  it('playlist_move moves ranges with 1-based positions', async () => {
    const created = await ok(t, 'create_playlist', { name: 'Moves' });
    const [a, b, c, d, e] = await tracks(5);
    await ok(t, 'add_to_playlist', { playlist: created.id, resources: [a, b, c, d, e] });
    await ok(t, 'playlist_move', { playlist: created.id, from_pos: 1, to_pos: 3 });
    expect(items(created.id)).toEqual([b, c, a, d, e]);
    await ok(t, 'playlist_move', { playlist: created.id, from_pos: 4, to_pos: 1, range_length: 2 });
    expect(items(created.id)).toEqual([d, e, b, c, a]);
    expect(
      await fails(t, 'playlist_move', {
        playlist: created.id,
        from_pos: 5,
        to_pos: 1,
        range_length: 2,
      }),
    ).toMatch(/has 5 items/);
  });

  it('playlist_move with resources replaces exactly the moved range, keeping copies elsewhere', async () => {
    const created = await ok(t, 'create_playlist', { name: 'Replace' });
    const [a, b, c, d, x, y] = await tracks(6);
    await ok(t, 'add_to_playlist', { playlist: created.id, resources: [a, b, c, a, d] });
    await ok(t, 'playlist_move', {
      playlist: created.id,
      from_pos: 1,
      to_pos: 3,
      range_length: 2,
      resources: [x, y],
    });
    // [a, b] leave, [c, a, d] remain, [x, y] land at position 3; the other `a` stays.
    expect(items(created.id)).toEqual([c, a, x, y, d]);
    expect(
      await fails(t, 'playlist_move', {
        playlist: created.id,
        from_pos: 1,
        to_pos: 2,
        range_length: 2,
        resources: [x],
      }),
    ).toMatch(/"resources" has 1 item\(s\) but range_length is 2/);
  });
});
