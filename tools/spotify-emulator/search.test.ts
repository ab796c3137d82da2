import { describe, expect, test } from 'vitest';
import type { Harness } from './support/harness.ts';
import { useHarness } from './support/harness.ts';

let h: Harness;
useHarness((harness) => (h = harness), { reset: false });

const search = (query: Record<string, string | number>) => h.call('GET', '/search', { query });
const names = (page: { items: { name: string }[] }) => page.items.map((i) => i.name);

describe('search', () => {
  test('field filters: track + artist with a multi-word value', async () => {
    const res = (await search({ q: 'track:doxy artist:Miles Dover', type: 'track', limit: 10 }))
      .json;
    expect(names(res.tracks).sort()).toEqual(['Doxy', 'Doxy - Remastered']);
    expect(res.tracks.items[0].artists[0].name).toBe('Miles Dover');
    expect(Object.keys(res)).toEqual(['tracks']);
  });

  test('free text plus filters, quotes, and year ranges', async () => {
    expect(
      names((await search({ q: 'remastered track:doxy', type: 'track' })).json.tracks),
    ).toEqual(['Doxy - Remastered']);
    expect(
      (await search({ q: 'artist:"Miles Dover" year:1955', type: 'album' })).json.albums.items[0]
        .name,
    ).toBe('Harbor Sessions');
    expect(
      (await search({ q: 'album:harbor sessions year:1950-1960', type: 'track' })).json.tracks
        .total,
    ).toBe(5);
    expect(
      (await search({ q: 'album:harbor sessions year:1960-1970', type: 'track' })).json.tracks
        .total,
    ).toBe(0);
    const recent = (await search({ q: 'tag:new', type: 'album', limit: 10 })).json.albums;
    expect(recent.total).toBeGreaterThan(0);
  });

  test('several types at once, each with its own paging object', async () => {
    const res = (await search({ q: 'podcast', type: 'show,episode,artist,playlist,audiobook' }))
      .json;
    expect(Object.keys(res).sort()).toEqual([
      'artists',
      'audiobooks',
      'episodes',
      'playlists',
      'shows',
    ]);
    expect(res.shows.total).toBe(8);
    expect(res.episodes.limit).toBe(5);
    expect(res.audiobooks.total).toBe(0);
    const playlists = (await search({ q: 'road', type: 'playlist' })).json.playlists;
    expect(names(playlists)).toContain('Road Trip');
  });

  test('limit 1..10 (default 5) in Development Mode, offset cap 1000, absolute next links', async () => {
    const first = (await search({ q: 'a', type: 'track' })).json.tracks;
    expect(first.limit).toBe(5);
    expect(first.total).toBeGreaterThan(1000);
    expect(first.next).toBe(`${h.emu.apiUrl}/search?offset=5&limit=5&q=a&type=track`);
    expect((await h.call('GET', first.next)).json.tracks.offset).toBe(5);
    expect((await search({ q: 'a', type: 'track', limit: 11 })).json).toEqual({
      error: { status: 400, message: 'Invalid limit' },
    });
    expect((await search({ q: 'a', type: 'track', limit: 10, offset: 990 })).status).toBe(200);
    expect((await search({ q: 'a', type: 'track', limit: 10, offset: 995 })).status).toBe(400);
    expect((await search({ q: 'a', type: 'track', offset: 1001 })).status).toBe(400);
    h.emu.control.configure({ mode: 'extended' });
    // Extended Quota Mode is outside the (Development-Mode) spec, so this call is not validated.
    const res = await fetch(`${h.emu.apiUrl}/search?q=a&type=track&limit=50`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(((await res.json()) as { tracks: { items: unknown[] } }).tracks.items).toHaveLength(50);
    h.emu.control.configure({ mode: 'development' });
  });

  test('validation errors', async () => {
    expect((await search({ q: '', type: 'track' })).json).toEqual({
      error: { status: 400, message: 'No search query' },
    });
    expect((await search({ q: 'x', type: 'song' })).status).toBe(400);
    expect((await search({ q: 'x' })).status).toBe(400);
    expect((await search({ q: 'x', type: 'track', market: 'usa' })).status).toBe(400);
  });
});
