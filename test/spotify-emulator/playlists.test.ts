import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ALL, Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
beforeEach(() => {
  h.emu.control.reset();
});
afterAll(() => h.close());

const stateItems = (id: string) =>
  h.emu.control.state.playlists.byId.get(id)!.items.map((i) => i.uri);
const trackUris = (n: number, from = 0) =>
  [...h.emu.control.state.catalog.tracks.keys()]
    .slice(from, from + n)
    .map((id) => `spotify:track:${id}`);

describe('listing playlists', () => {
  test('/me/playlists pages with absolute next/previous links', async () => {
    const first = (await h.call('GET', '/me/playlists')).json;
    expect(first).toMatchObject({ limit: 20, offset: 0, previous: null, total: 45 });
    expect(first.items[0].name).toBe('Everything');
    expect(first.items[0].items).toEqual({
      href: `${h.emu.apiUrl}/playlists/${h.seed.bigPlaylistId}/items`,
      total: 5000,
    });
    expect(first.next).toBe(`${h.emu.apiUrl}/me/playlists?offset=20&limit=20`);
    const second = (await h.call('GET', first.next)).json;
    expect(second.previous).toBe(`${h.emu.apiUrl}/me/playlists?offset=0&limit=20`);
    const third = (await h.call('GET', second.next)).json;
    expect(third.items).toHaveLength(5);
    expect(third.next).toBeNull();
  });

  test('collaborative playlists need playlist-read-collaborative; limits are enforced', async () => {
    const token = h.tokenFor(['playlist-read-private']);
    expect((await h.call('GET', '/me/playlists', { token })).json.total).toBe(44);
    expect((await h.call('GET', '/me/playlists', { query: { limit: 51 } })).json).toEqual({
      error: { status: 400, message: 'Invalid limit' },
    });
    expect((await h.call('GET', '/me/playlists', { query: { limit: 0 } })).status).toBe(400);
    expect(
      (await h.call('GET', '/me/playlists', { query: { offset: 100_001 } })).json.error.message,
    ).toBe('Invalid offset');
  });
});

describe('reading one playlist', () => {
  test('embeds the first 100 items, with item and the legacy track alias', async () => {
    const body = (await h.call('GET', `/playlists/${h.seed.bigPlaylistId}`)).json;
    expect(body).toMatchObject({
      name: 'Everything',
      type: 'playlist',
      owner: { id: 'pipit-tester' },
      followers: { total: 3 },
    });
    expect(body.items.total).toBe(5000);
    expect(body.items.items).toHaveLength(100);
    expect(body.items.items[0].item).toEqual(body.items.items[0].track);
    expect(body.tracks).toEqual(body.items);
    const next = (await h.call('GET', body.items.next)).json;
    expect(next.offset).toBe(100);
    expect(next.items[0].item.uri).toBe(stateItems(h.seed.bigPlaylistId)[100]);
  });

  test('all 5,000 items are reachable through /items paging (limit 50)', async () => {
    const first = (
      await h.call('GET', `/playlists/${h.seed.bigPlaylistId}/items`, {
        query: { limit: 50, fields: 'total,next,items(item(uri))' },
      })
    ).json;
    expect(Object.keys(first).sort()).toEqual(['items', 'next', 'total']);
    const offsets = Array.from({ length: 99 }, (_, i) => (i + 1) * 50);
    const pages = await Promise.all(
      offsets.map((offset) =>
        h.call('GET', `/playlists/${h.seed.bigPlaylistId}/items`, {
          query: { offset, limit: 50, fields: 'items(item(uri))' },
        }),
      ),
    );
    const bodies: { items: { item: { uri: string } }[] }[] = [
      first,
      ...pages.map((p) => p.json as { items: { item: { uri: string } }[] }),
    ];
    const uris = bodies.flatMap((p) => p.items.map((i) => i.item.uri));
    expect(uris).toEqual(stateItems(h.seed.bigPlaylistId));
    expect(uris.filter((u) => u.includes(':episode:')).length).toBe(10);
    expect(
      (await h.call('GET', `/playlists/${h.seed.bigPlaylistId}/items`, { query: { limit: 51 } }))
        .json.error.message,
    ).toBe('Invalid limit');
  });

  test('fields: projection, nesting and exclusion; malformed is 400', async () => {
    const id = h.seed.roadTripPlaylistId;
    expect(
      (await h.call('GET', `/playlists/${id}`, { query: { fields: 'name,description' } })).json,
    ).toEqual({ name: 'Road Trip', description: 'Songs for the road' });
    const nested = (
      await h.call('GET', `/playlists/${id}`, {
        query: { fields: 'items.items(added_by.id,item(name,album(name)))' },
      })
    ).json;
    expect(Object.keys(nested)).toEqual(['items']);
    expect(Object.keys(nested.items.items[0]).sort()).toEqual(['added_by', 'item']);
    expect(nested.items.items[0].added_by).toEqual({ id: 'pipit-tester' });
    expect(Object.keys(nested.items.items[0].item.album)).toEqual(['name']);
    const excluded = (
      await h.call('GET', `/playlists/${id}/items`, {
        query: { fields: 'items.item.album(!external_urls,!images)' },
      })
    ).json;
    const album = excluded.items[0].item.album;
    expect(album).not.toHaveProperty('images');
    expect(album).toHaveProperty('release_date');
    expect((await h.call('GET', `/playlists/${id}`, { query: { fields: 'items(' } })).status).toBe(
      400,
    );
  });

  test('other users\u2019 playlists: no items in Development Mode, 403 on /items; collaborators see them', async () => {
    const foreign = (await h.call('GET', `/playlists/${h.seed.foreignPlaylistId}`)).json;
    expect(foreign.name).toBe('Other Tester Favourites');
    expect(foreign).not.toHaveProperty('items');
    expect(foreign).not.toHaveProperty('tracks');
    expect((await h.call('GET', `/playlists/${h.seed.foreignPlaylistId}/items`)).json).toEqual({
      error: { status: 403, message: 'Forbidden' },
    });
    expect(
      (await h.call('GET', `/playlists/${h.seed.collaborativePlaylistId}/items`)).json.total,
    ).toBe(20);
    h.emu.control.configure({ mode: 'extended' });
    expect((await h.call('GET', `/playlists/${h.seed.foreignPlaylistId}`)).json.items.total).toBe(
      40,
    );
  });

  test('Spotify-owned is 404 "Resource not found"; malformed IDs are 400', async () => {
    expect((await h.call('GET', `/playlists/${h.seed.spotifyOwnedPlaylistId}`)).json).toEqual({
      error: { status: 404, message: 'Resource not found' },
    });
    expect((await h.call('GET', '/playlists/not-an-id')).json).toEqual({
      error: { status: 400, message: 'Invalid base62 id' },
    });
  });
});

describe('changing playlists', () => {
  test('create: 201 PlaylistObject, public by default, listed first', async () => {
    const res = await h.call('POST', '/me/playlists', {
      body: { name: 'New one', description: 'made in a test' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'New one',
      public: true,
      collaborative: false,
      description: 'made in a test',
      items: { total: 0, items: [] },
    });
    expect(res.json.snapshot_id.length).toBeGreaterThanOrEqual(50);
    expect((await h.call('GET', '/me/playlists', { query: { limit: 1 } })).json.items[0].id).toBe(
      res.json.id,
    );
  });

  test('create: validation and privacy-dependent scopes', async () => {
    expect((await h.call('POST', '/me/playlists', { body: { description: 'x' } })).status).toBe(
      400,
    );
    expect(
      (await h.call('POST', '/me/playlists', { body: { name: 'x', collaborative: true } })).status,
    ).toBe(400);
    const publicOnly = h.tokenFor(['playlist-modify-public']);
    expect(
      (
        await h.call('POST', '/me/playlists', {
          token: publicOnly,
          body: { name: 'x', public: false },
        })
      ).json.error.message,
    ).toBe('Insufficient client scope');
    expect(
      (await h.call('POST', '/me/playlists', { token: publicOnly, body: { name: 'x' } })).status,
    ).toBe(201);
    expect(
      (
        await h.call('PUT', `/playlists/${h.seed.privatePlaylistId}/items`, {
          token: publicOnly,
          body: { uris: [] },
        })
      ).status,
    ).toBe(403);
  });

  test('add: append, insert at position, query uris win; every change is a new snapshot', async () => {
    const id = h.seed.roadTripPlaylistId;
    const before = stateItems(id);
    const snapshots = new Set<string>();
    const [a, b, c] = trackUris(3, 40);
    const add1 = await h.call('POST', `/playlists/${id}/items`, { body: { uris: [a] } });
    expect(add1.status).toBe(201);
    snapshots.add(add1.json.snapshot_id);
    const add2 = await h.call('POST', `/playlists/${id}/items`, {
      body: { uris: [b], position: 0 },
    });
    snapshots.add(add2.json.snapshot_id);
    const add3 = await h.call('POST', `/playlists/${id}/items`, {
      query: { uris: c!, position: 1 },
      body: { uris: [a] },
    });
    snapshots.add(add3.json.snapshot_id);
    expect(stateItems(id)).toEqual([b, c, ...before, a]);
    const details = await h.call('PUT', `/playlists/${id}`, { body: { name: 'Renamed' } });
    expect(details.status).toBe(200);
    expect(details.text).toBe('');
    const after = (
      await h.call('GET', `/playlists/${id}`, { query: { fields: 'name,snapshot_id' } })
    ).json;
    expect(after.name).toBe('Renamed');
    snapshots.add(after.snapshot_id);
    expect(snapshots.size).toBe(4);
  });

  test('add: errors', async () => {
    const id = h.seed.roadTripPlaylistId;
    expect(
      (await h.call('POST', `/playlists/${id}/items`, { body: { uris: trackUris(101) } })).status,
    ).toBe(400);
    expect(
      (
        await h.call('POST', `/playlists/${id}/items`, {
          body: { uris: ['spotify:track:4iV5W9uYEdYUVa79Axb7Rh'] },
        })
      ).json.error.message,
    ).toBe('Payload contains a non-existing ID');
    expect(
      (
        await h.call('POST', `/playlists/${id}/items`, {
          body: { uris: trackUris(1), position: 999 },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await h.call('POST', `/playlists/${h.seed.foreignPlaylistId}/items`, {
          body: { uris: trackUris(1) },
        })
      ).json,
    ).toEqual({ error: { status: 403, message: 'Forbidden' } });
    expect(
      (
        await h.call('POST', `/playlists/${h.seed.collaborativePlaylistId}/items`, {
          body: { uris: trackUris(1) },
        })
      ).status,
    ).toBe(201);
  });

  test('reorder: indices refer to the snapshot given, even after later changes', async () => {
    const id = h.seed.privatePlaylistId;
    const original = stateItems(id);
    const v1 = (await h.call('GET', `/playlists/${id}`, { query: { fields: 'snapshot_id' } })).json
      .snapshot_id;
    const moved = await h.call('PUT', `/playlists/${id}/items`, {
      body: { range_start: 0, insert_before: original.length },
    });
    expect(moved.status).toBe(200);
    expect(stateItems(id)).toEqual([...original.slice(1), original[0]]);
    // Against v1, index 0 is still the original first item; it goes before v1's index 3.
    await h.call('PUT', `/playlists/${id}/items`, {
      body: { range_start: 0, insert_before: 3, snapshot_id: v1 },
    });
    expect(stateItems(id).slice(0, 3)).toEqual([original[1], original[2], original[0]]);
    await h.call('PUT', `/playlists/${id}/items`, {
      body: { range_start: 5, range_length: 2, insert_before: 0 },
    });
    expect(stateItems(id).slice(0, 2)).toEqual([original[5], original[6]]);
    expect(
      (
        await h.call('PUT', `/playlists/${id}/items`, {
          body: { range_start: 0, insert_before: 1, snapshot_id: 'nope' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await h.call('PUT', `/playlists/${id}/items`, {
          body: { range_start: 50, insert_before: 0 },
        })
      ).status,
    ).toBe(400);
  });

  test('replace (body or query) and clear', async () => {
    const id = h.seed.roadTripPlaylistId;
    const uris = trackUris(3, 60);
    expect((await h.call('PUT', `/playlists/${id}/items`, { body: { uris } })).status).toBe(200);
    expect(stateItems(id)).toEqual(uris);
    await h.call('PUT', `/playlists/${id}/items`, { query: { uris: '' } });
    expect(stateItems(id)).toEqual([]);
  });

  test('remove: every occurrence of each URI; snapshot_id checked', async () => {
    const id = h.seed.roadTripPlaylistId;
    const [first] = stateItems(id);
    await h.call('POST', `/playlists/${id}/items`, { body: { uris: [first] } });
    const snapshot = (await h.call('GET', `/playlists/${id}`, { query: { fields: 'snapshot_id' } }))
      .json.snapshot_id;
    const res = await h.call('DELETE', `/playlists/${id}/items`, {
      body: { items: [{ uri: first }], snapshot_id: snapshot },
    });
    expect(res.status).toBe(200);
    expect(res.json.snapshot_id).not.toBe(snapshot);
    expect(stateItems(id)).not.toContain(first);
    expect(stateItems(id)).toHaveLength(29);
    expect(
      (await h.call('DELETE', `/playlists/${id}/items`, { body: { tracks: [{ uri: first }] } }))
        .status,
    ).toBe(400);
  });

  test('writes need the modify scope matching the playlist', async () => {
    const token = h.tokenFor(ALL.filter((s) => s !== 'playlist-modify-private'));
    const res = await h.call('DELETE', `/playlists/${h.seed.privatePlaylistId}/items`, {
      token,
      body: { items: [{ uri: trackUris(1)[0] }] },
    });
    expect(res.json).toEqual({ error: { status: 403, message: 'Insufficient client scope' } });
  });
});
