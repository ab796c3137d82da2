import { describe, expect, test } from 'vitest';
import type { Harness } from './support/harness.ts';
import { ALL, useHarness } from './support/harness.ts';

let h: Harness;
useHarness((harness) => (h = harness));

const stateItems = (id: string) =>
  h.emu.control.state.playlists.byId.get(id)!.items.map((i) => i.uri);
const trackUris = (n: number, from = 0) =>
  [...h.emu.control.state.catalog.tracks.keys()]
    .slice(from, from + n)
    .map((id) => `spotify:track:${id}`);

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
