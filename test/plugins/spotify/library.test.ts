import { describe, expect, it } from 'vitest';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { fails, ok, useAuthorizedSpotify } from './helpers.ts';

let emu: SpotifyEmulator;
let t: TestApp;

useAuthorizedSpotify((f) => ({ emu, t } = f));

const saved = (kind: 'tracks' | 'albums' | 'episodes' | 'shows') =>
  emu.control.state
    .user('pipit-tester')
    .library[kind].list()
    .map((e) => e.id);

describe('library', () => {
  it('get_tracks pages concurrently (default limit 100) and returns track entities', async () => {
    emu.control.clearRequests();
    const list = (await ok(t, 'get_tracks')) as { id: string; type: string; duration: number }[];
    expect(list).toHaveLength(100);
    expect(list.map((x) => x.id)).toEqual(saved('tracks').slice(0, 100));
    expect(list[0]).toMatchObject({ type: 'track', duration: expect.any(Number) });
    expect(emu.control.requests({ path: '/v1/me/tracks' }).map((r) => r.query)).toEqual([
      { offset: '0', limit: '50' },
      { offset: '50', limit: '50' },
    ]);
    const tail = (await ok(t, 'get_tracks', { limit: 30, offset: 110 })) as { id: string }[];
    expect(tail.map((x) => x.id)).toEqual(saved('tracks').slice(110, 120));
  });

  it('get_albums, get_episodes and get_shows return their entities', async () => {
    const albums = (await ok(t, 'get_albums')) as { id: string; tracks: unknown[]; date: string }[];
    expect(albums.map((a) => a.id)).toEqual(saved('albums'));
    expect(albums[0]).toMatchObject({
      type: 'album',
      tracks: expect.any(Array),
      date: expect.any(String),
    });
    const episodes = (await ok(t, 'get_episodes', { limit: 5 })) as { show: string }[];
    expect(episodes).toHaveLength(5);
    expect(episodes[0]).toMatchObject({ type: 'episode', show: expect.any(String) });
    const shows = (await ok(t, 'get_shows')) as { id: string; publisher: string }[];
    expect(shows.map((s) => s.id)).toEqual(saved('shows'));
    expect(shows[0]).toMatchObject({ type: 'show', publisher: expect.any(String), tracks: null });
    expect(await fails(t, 'get_albums', { limit: 0 })).toMatch(/limit/);
  });

  it('save_/remove_ tracks accept IDs, URIs and links, in chunks of 40', async () => {
    const all = [...emu.control.state.catalog.tracks.keys()];
    const fresh = all.filter((id) => !saved('tracks').includes(id)).slice(0, 90);
    const resources = fresh.map((id, i) =>
      i % 3 === 0
        ? id
        : i % 3 === 1
          ? `spotify:track:${id}`
          : `https://open.spotify.com/track/${id}`,
    );
    emu.control.clearRequests();
    await ok(t, 'save_tracks', { resources });
    expect(saved('tracks')).toEqual(expect.arrayContaining(fresh));
    const puts = emu.control.requests({ method: 'PUT', path: '/v1/me/library' });
    expect(puts.map((p) => String(p.query.uris).split(',').length)).toEqual([40, 40, 10]);
    await ok(t, 'remove_tracks', { resources });
    expect(saved('tracks').some((id) => fresh.includes(id))).toBe(false);
    expect(emu.control.requests({ method: 'DELETE', path: '/v1/me/library' })).toHaveLength(3);
  });

  it('save_/remove_ albums, episodes and shows', async () => {
    const cat = emu.control.state.catalog;
    const pick = <T>(m: Map<string, T>, kind: 'albums' | 'episodes' | 'shows') =>
      [...m.keys()].find((id) => !saved(kind).includes(id))!;
    const album = pick(cat.albums, 'albums');
    const episode = pick(cat.episodes, 'episodes');
    const show = pick(cat.shows, 'shows');
    await ok(t, 'save_albums', { resources: [album] });
    await ok(t, 'save_episodes', { resources: [`spotify:episode:${episode}`] });
    await ok(t, 'save_shows', { resources: [show] });
    expect(saved('albums')).toContain(album);
    expect(saved('episodes')).toContain(episode);
    expect(saved('shows')).toContain(show);
    await ok(t, 'remove_albums', { resources: [album] });
    await ok(t, 'remove_episodes', { resources: [episode] });
    await ok(t, 'remove_shows', { resources: [`spotify:show:${show}`] });
    expect(saved('albums')).not.toContain(album);
    expect(saved('episodes')).not.toContain(episode);
    expect(saved('shows')).not.toContain(show);
  });

  it('refuses a resource of the wrong type or a malformed one before any request', async () => {
    emu.control.clearRequests();
    expect(
      await fails(t, 'save_albums', { resources: ['spotify:track:4iV5W9uYEdYUVa79Axb7Rh'] }),
    ).toMatch(/is a track, but only album resources are accepted/);
    expect(await fails(t, 'save_tracks', { resources: ['nope'] })).toMatch(
      /"nope" is not a URI like spotify:track:<id>.*or a bare 22-character ID/,
    );
    expect(await fails(t, 'remove_tracks', { resources: [] })).toMatch(/resources/);
    expect(emu.control.requests()).toHaveLength(0);
  });
});
