import { describe, expect, it } from 'vitest';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { fails, ok, useAuthorizedSpotify } from './helpers.ts';
import type { Loose } from './helpers.ts';

let emu: SpotifyEmulator;
let t: TestApp;

useAuthorizedSpotify((f) => ({ emu, t } = f));

const searches = () => emu.control.requests({ path: '/v1/search' });

describe('search', () => {
  it('honours the default limit of 50 with pages of 10, in the API order', async () => {
    const results = (await ok(t, 'search', { query: 'a' })) as { id: string; type: string }[];
    expect(results).toHaveLength(50);
    expect(results.every((r) => r.type === 'track')).toBe(true);
    expect(searches().map((r) => r.query.offset)).toEqual(['0', '10', '20', '30', '40']);
    expect(searches().every((r) => r.query.limit === '10')).toBe(true);
    const again = (await ok(t, 'search', { query: 'a', limit: 10, offset: 20 })) as {
      id: string;
    }[];
    expect(again.map((r) => r.id)).toEqual(results.slice(20, 30).map((r) => r.id));
  });

  it('builds filters from a query object or extra arguments', async () => {
    const byObject = (await ok(t, 'search', {
      query: { artist: 'Miles Dover', track: 'Doxy', year: '1950-1960' },
      limit: 5,
    })) as { title: string; artist: string; date: number }[];
    expect(byObject.length).toBeGreaterThan(0);
    expect(
      byObject.every((r) => r.title.includes('Doxy') && r.artist.includes('Miles Dover')),
    ).toBe(true);
    expect(searches()[0]!.query.q).toBe('artist:"Miles Dover" track:Doxy year:1950-1960');
    const byKwargs = await ok(t, 'search', {
      artist: 'Miles Dover',
      track: 'Doxy',
      year: 1955,
      limit: 5,
    });
    expect(byKwargs).toEqual(byObject);
    expect(await fails(t, 'search', { query: { year: 'fifties' } })).toMatch(
      /dash-separated range/,
    );
    expect(await fails(t, 'search', { colour: 'blue' })).toMatch(/unknown filter "colour"/);
    expect(await fails(t, 'search', {})).toMatch(/give a query/);
  });

  it('returns every search type', async () => {
    const album = (await ok(t, 'search', {
      query: 'Harbor Sessions',
      type: 'album',
      limit: 1,
    })) as Loose[];
    expect(album[0]).toMatchObject({
      type: 'album',
      name: 'Harbor Sessions',
      date: '1955-06-01',
      tracks: null,
    });
    const artist = (await ok(t, 'search', {
      query: 'Miles Dover',
      type: 'artist',
      limit: 1,
    })) as Loose[];
    expect(artist[0]).toMatchObject({
      type: 'artist',
      name: 'Miles Dover',
      genres: expect.any(Array),
    });
    const playlist = (await ok(t, 'search', {
      query: 'Road',
      type: 'playlist',
      limit: 3,
    })) as Loose[];
    expect(playlist[0]).toMatchObject({ snapshot_id: expect.any(String), tracks: null });
    const show = (await ok(t, 'search', { query: 'a', type: 'show', limit: 2 })) as Loose[];
    expect(show[0]).toMatchObject({ type: 'show', publisher: expect.any(String) });
    const episode = (await ok(t, 'search', { query: 'a', type: 'episode', limit: 2 })) as Loose[];
    expect(episode[0]).toMatchObject({ type: 'episode', description: expect.any(String) });
  });

  it('looks resources up directly with uri', async () => {
    const id = emu.control.seed.roadTripPlaylistId;
    const found = (await ok(t, 'search', {
      type: 'playlist',
      uri: `spotify:playlist:${id}`,
    })) as Loose[];
    expect(found).toEqual([expect.objectContaining({ id, name: 'Road Trip', tracks: null })]);
    const [track] = (await ok(t, 'search', { query: 'Doxy', limit: 1 })) as Loose[];
    // The emulator does not serve GET /tracks/{id}: answer it with a canned TrackObject.
    emu.control.addFault({
      method: 'GET',
      path: `/v1/tracks/${track.id}`,
      response: {
        kind: 'custom',
        status: 200,
        json: { type: 'track', id: track.id, uri: track.uri, name: track.title, duration_ms: 1000 },
      },
    });
    const direct = (await ok(t, 'search', { query: { uri: [track.id] } })) as Loose[];
    expect(direct).toEqual([
      expect.objectContaining({ uri: track.uri, title: track.title, duration: 1 }),
    ]);
    expect(await fails(t, 'search', { uri: 'spotify:album:4iV5W9uYEdYUVa79Axb7Rh' })).toMatch(
      /only track resources/,
    );
  });

  it('refuses out-of-range limits and types', async () => {
    expect(await fails(t, 'search', { query: 'a', limit: 0 })).toMatch(/limit/);
    expect(await fails(t, 'search', { query: 'a', limit: 1001 })).toMatch(/limit/);
    expect(await fails(t, 'search', { query: 'a', type: 'audiobook' })).toMatch(/type/);
  });
});
