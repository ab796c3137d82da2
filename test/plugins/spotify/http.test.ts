import { describe, expect, it } from 'vitest';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { registerAndToken } from '../../helpers/service.ts';
import { useAuthorizedSpotify } from './helpers.ts';
import type { Loose } from './helpers.ts';

// Every action once through POST /execute (half of them under the music.streaming alias), in an
// order that keeps the emulator's player in a usable state.

let emu: SpotifyEmulator;
let t: TestApp;
let token: string;

useAuthorizedSpotify(async (f) => {
  ({ emu, t } = f);
  token = await registerAndToken(t.app);
});

let n = 0;
async function post(action: string, args: Record<string, unknown> = {}): Promise<Loose> {
  const plugin = n++ % 2 ? 'music.streaming' : 'music.spotify';
  const res = await t.app.inject({
    method: 'POST',
    url: '/execute',
    headers: { authorization: `Bearer ${token}` },
    payload: { type: 'request', action: `${plugin}.${action}`, args },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<{ response: { output: unknown; errors: string[] } }>();
  expect(body.response.errors).toEqual([]);
  return body.response.output;
}

describe('every action over POST /execute', () => {
  it('player, status and queue actions', async () => {
    const s = emu.control.seed;
    const album = `spotify:album:${s.fixedAlbumId}`;
    expect((await post('get_devices')).length).toBe(3);
    await post('start_or_transfer_playback', { device: 'Living Room Speaker' });
    await post('play', { resource: album, device: 'Living Room Speaker' });
    expect(emu.control.player()).toMatchObject({ contextUri: album, isPlaying: true });
    expect((await post('status')).state).toBe('play');
    const current = await post('current_track');
    expect(current.uri).toBe(emu.control.player().current);
    await post('pause');
    expect(emu.control.player().isPlaying).toBe(false);
    await post('play_if_paused');
    expect(emu.control.player().isPlaying).toBe(true);
    await post('stop');
    expect(emu.control.player().isPlaying).toBe(false);
    await post('play_if_paused_or_stopped');
    expect(emu.control.player().isPlaying).toBe(true);
    await post('next');
    expect(emu.control.player().current).not.toBe(current.uri);
    await post('previous');
    expect(emu.control.player().current).toBe(current.uri);
    await post('seek', { position: '3.5' });
    expect(emu.control.player().progressMs).toBe(3500);
    await post('set_volume', { volume: '40' });
    expect(emu.control.devices().find((d) => d.id === s.deviceIds.speaker)!.volume_percent).toBe(
      40,
    );
    await post('add', { resource: current.uri });
    expect(emu.control.player().queue).toEqual([current.uri]);
    expect(await post('random', { value: 'true' })).toEqual({ random: true });
    expect(emu.control.player().shuffle).toBe(true);
    expect(await post('repeat')).toEqual({ repeat: true });
    expect(emu.control.player().repeat).toBe('context');
    expect((await post('history', { limit: 3 })).length).toBe(3);
  });

  it('playlist actions', async () => {
    const created = await post('create_playlist', { name: 'Over HTTP', public: 'true' });
    expect(emu.control.state.playlists.byId.get(created.id)!.public).toBe(true);
    const found = await post('search', { query: 'a', limit: 3 });
    const uris = found.map((x: { uri: string }) => x.uri);
    await post('add_to_playlist', { playlist: 'Over HTTP', resources: uris });
    await post('playlist_move', { playlist: created.uri, from_pos: 1, to_pos: 3 });
    await post('remove_from_playlist', { playlist: created.id, resources: uris[1] });
    const after = await post('get_playlist', { playlist: created.id });
    expect(after.tracks.map((x: { uri: string }) => x.uri)).toEqual([uris[2], uris[0]]);
    expect(emu.control.state.playlists.byId.get(created.id)!.items.map((i) => i.uri)).toEqual([
      uris[2],
      uris[0],
    ]);
    expect((await post('get_playlists', { limit: 100 })).length).toBe(46);
    await post('unfollow_playlist', { playlist: created.id });
    await post('follow_playlist', { playlist: created.id });
    expect(
      emu.control.state
        .user('pipit-tester')
        .library.playlists.list()
        .some((p) => p.id === created.id),
    ).toBe(true);
  });

  it('library and search actions', async () => {
    const lib = emu.control.state.user('pipit-tester').library;
    expect((await post('get_tracks', { limit: 5 })).length).toBe(5);
    expect((await post('get_albums', { limit: 5 })).length).toBe(5);
    expect((await post('get_episodes', { limit: 5 })).length).toBe(5);
    expect((await post('get_shows', { limit: 5 })).length).toBe(5);
    const cat = emu.control.state.catalog;
    const track = [...cat.tracks.keys()].find((id) => !lib.tracks.has(id))!;
    const album = [...cat.albums.keys()].find((id) => !lib.albums.has(id))!;
    const episode = [...cat.episodes.keys()].find((id) => !lib.episodes.has(id))!;
    const show = [...cat.shows.keys()].find((id) => !lib.shows.has(id))!;
    await post('save_tracks', { resources: [track] });
    await post('save_albums', { resources: [album] });
    await post('save_episodes', { resources: [episode] });
    await post('save_shows', { resources: [show] });
    expect([
      lib.tracks.has(track),
      lib.albums.has(album),
      lib.episodes.has(episode),
      lib.shows.has(show),
    ]).toEqual([true, true, true, true]);
    await post('remove_tracks', { resources: [track] });
    await post('remove_albums', { resources: [album] });
    await post('remove_episodes', { resources: [episode] });
    await post('remove_shows', { resources: [show] });
    expect([
      lib.tracks.has(track),
      lib.albums.has(album),
      lib.episodes.has(episode),
      lib.shows.has(show),
    ]).toEqual([false, false, false, false]);
    const artists = await post('search', { query: 'Miles', type: 'artist', limit: '2' });
    expect(artists[0].type).toBe('artist');
  });

  it('bad arguments are a 400 naming the argument', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { authorization: `Bearer ${token}` },
      payload: { type: 'request', action: 'music.spotify.set_volume', args: { volume: 150 } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().response.errors[0]).toMatch(/"volume".*100/);
  });

  it('the catalog lists its actions, defaults and results', async () => {
    const plugin = t.service.registry.catalog().find((p) => p.name === 'music.spotify')!;
    expect(plugin.aliases).toEqual(['music.streaming']);
    expect(plugin.actions).toHaveLength(38);
    const search = plugin.actions.find((a) => a.name === 'music.spotify.search')!;
    expect(search.extraArgs).toBe(true);
    expect(search.params.properties).toMatchObject({
      limit: { default: 50 },
      type: { default: 'track' },
    });
    expect(plugin.actions.find((a) => a.name === 'music.spotify.status')!.result).toBeDefined();
  });
});
