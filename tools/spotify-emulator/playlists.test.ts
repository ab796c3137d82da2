import { describe, expect, test } from 'vitest';
import type { Harness } from './support/harness.ts';
import { useHarness } from './support/harness.ts';

let h: Harness;
useHarness((harness) => (h = harness));

const stateItems = (id: string) =>
  h.emu.control.state.playlists.byId.get(id)!.items.map((i) => i.uri);
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
