import { describe, expect, it } from 'vitest';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { fails, ok, startPlaying, useAuthorizedSpotify } from './helpers.ts';

let emu: SpotifyEmulator;
let t: TestApp;

useAuthorizedSpotify((f) => ({ emu, t } = f));

describe('player actions', () => {
  it('status reports stop when no device is active, then play/pause', async () => {
    expect(await ok(t, 'status')).toMatchObject({ state: 'stop', track: null, device_id: null });
    await startPlaying(t, emu);
    const playing = await ok(t, 'status');
    expect(playing).toMatchObject({
      state: 'play',
      device_id: emu.control.seed.deviceIds.speaker,
      device_name: 'Living Room Speaker',
      random: false,
      repeat: false,
      elapsed: 0,
    });
    expect(playing.track).toMatchObject({ type: 'track', album: 'Harbor Sessions', date: 1955 });
    expect(playing.track.file).toBe(playing.track.uri);
    expect(playing.time).toBe(playing.track.duration);
  });

  it('play with an album URI plays that context; with a track URI plays the track', async () => {
    await startPlaying(t, emu);
    expect(emu.control.player().contextUri).toBe(`spotify:album:${emu.control.seed.fixedAlbumId}`);
    const track = (await ok(t, 'current_track')) as { uri: string };
    await ok(t, 'next');
    const second = (await ok(t, 'current_track')) as { uri: string };
    expect(second.uri).not.toBe(track.uri);
    await ok(t, 'play', { resource: track.uri });
    expect(emu.control.player()).toMatchObject({ current: track.uri, contextUri: null });
    const body = emu.control.requests({ method: 'PUT', path: '/v1/me/player/play' }).at(-1)!.body;
    expect(body).toEqual({ uris: [track.uri] });
  });

  it('play accepts an open.spotify.com link and a device by name (case-insensitive)', async () => {
    const id = emu.control.seed.fixedAlbumId;
    await ok(t, 'play', {
      resource: `https://open.spotify.com/album/${id}?si=x`,
      device: 'work LAPTOP',
    });
    expect(emu.control.player()).toMatchObject({
      deviceId: emu.control.seed.deviceIds.laptop,
      contextUri: `spotify:album:${id}`,
      isPlaying: true,
    });
  });

  it('pause toggles; stop only pauses; play without resource resumes', async () => {
    await startPlaying(t, emu);
    await ok(t, 'pause');
    expect(emu.control.player().isPlaying).toBe(false);
    expect((await ok(t, 'status')).state).toBe('pause');
    await ok(t, 'pause');
    expect(emu.control.player().isPlaying).toBe(true);
    await ok(t, 'stop');
    expect(emu.control.player().isPlaying).toBe(false);
    await ok(t, 'stop');
    expect(emu.control.player().isPlaying).toBe(false);
    expect(emu.control.requests({ method: 'PUT', path: '/v1/me/player/pause' })).toHaveLength(2);
    await ok(t, 'play');
    expect(emu.control.player().isPlaying).toBe(true);
    await ok(t, 'play'); // already playing: still a success
    expect(emu.control.player().isPlaying).toBe(true);
  });

  it('play_if_paused resumes only when paused; play_if_paused_or_stopped is its alias', async () => {
    await startPlaying(t, emu);
    emu.control.clearRequests();
    await ok(t, 'play_if_paused');
    expect(emu.control.requests({ method: 'PUT', path: '/v1/me/player/play' })).toHaveLength(0);
    await ok(t, 'pause');
    await ok(t, 'play_if_paused');
    expect(emu.control.player().isPlaying).toBe(true);
    await ok(t, 'pause');
    await ok(t, 'play_if_paused_or_stopped');
    expect(emu.control.player().isPlaying).toBe(true);
  });

  it('next and previous move through the context', async () => {
    await startPlaying(t, emu);
    const first = emu.control.player().current;
    await ok(t, 'next');
    expect(emu.control.player().current).not.toBe(first);
    await ok(t, 'previous');
    expect(emu.control.player().current).toBe(first);
  });

  it('seek sets the position in seconds', async () => {
    await startPlaying(t, emu);
    await ok(t, 'seek', { position: 12.5 });
    expect(emu.control.player().progressMs).toBe(12500);
    expect(emu.control.requests({ path: '/v1/me/player/seek' })[0]!.query).toMatchObject({
      position_ms: '12500',
    });
    expect(await fails(t, 'seek', { position: -1 })).toMatch(/position/);
  });

  it('set_volume sets the device volume and rejects out-of-range values', async () => {
    await startPlaying(t, emu);
    await ok(t, 'set_volume', { volume: 33 });
    const speaker = emu.control.devices().find((d) => d.id === emu.control.seed.deviceIds.speaker);
    expect(speaker!.volume_percent).toBe(33);
    expect(await fails(t, 'set_volume', { volume: 101 })).toMatch(/volume.*100/);
    expect(await fails(t, 'set_volume', { volume: 20, device: 'Pocket Phone' })).toMatch(
      /does not allow its volume/,
    );
  });

  it('add queues a track; bad URIs are refused before any request', async () => {
    await startPlaying(t, emu);
    const track = (await ok(t, 'search', { query: 'Doxy', limit: 1 })) as { uri: string }[];
    await ok(t, 'add', { resource: track[0]!.uri });
    expect(emu.control.player().queue).toEqual([track[0]!.uri]);
    emu.control.clearRequests();
    expect(await fails(t, 'add', { resource: 'spotify:track:!!' })).toMatch(/malformed ID/);
    expect(await fails(t, 'add', { resource: 'spotify:album:4iV5W9uYEdYUVa79Axb7Rh' })).toMatch(
      /is a album, but only track or episode/,
    );
    expect(await fails(t, 'add', { resource: 'hello' })).toMatch(/is not a URI like spotify:track/);
    expect(emu.control.requests()).toHaveLength(0);
  });

  it('random and repeat set and toggle', async () => {
    await startPlaying(t, emu);
    expect(await ok(t, 'random')).toEqual({ random: true });
    expect(emu.control.player().shuffle).toBe(true);
    expect(await ok(t, 'random')).toEqual({ random: false });
    expect(await ok(t, 'random', { value: true })).toEqual({ random: true });
    expect(await ok(t, 'repeat')).toEqual({ repeat: true });
    expect(emu.control.player().repeat).toBe('context');
    expect(await ok(t, 'repeat')).toEqual({ repeat: false });
    expect(emu.control.player().repeat).toBe('off');
    expect(await ok(t, 'repeat', { value: false })).toEqual({ repeat: false });
    expect((await ok(t, 'status')).random).toBe(true);
  });

  it('start_or_transfer_playback moves the session and plays', async () => {
    await startPlaying(t, emu);
    await ok(t, 'pause');
    await ok(t, 'start_or_transfer_playback', { device: 'Work Laptop' });
    expect(emu.control.player()).toMatchObject({
      deviceId: emu.control.seed.deviceIds.laptop,
      isPlaying: true,
    });
    expect(await fails(t, 'start_or_transfer_playback', { device: 'Toaster' })).toMatch(
      /no Spotify device named or with ID "Toaster"; known devices: "Living Room Speaker", "Work Laptop", "Pocket Phone"/,
    );
  });

  it('get_devices lists device entities; names are cached and re-listed on a miss', async () => {
    const devices = (await ok(t, 'get_devices')) as { name: string }[];
    expect(devices.map((d) => d.name)).toEqual([
      'Living Room Speaker',
      'Work Laptop',
      'Pocket Phone',
    ]);
    expect(devices[0]).toEqual({
      id: emu.control.seed.deviceIds.speaker,
      is_active: false,
      is_private_session: false,
      is_restricted: false,
      name: 'Living Room Speaker',
      type: 'Speaker',
      volume: expect.any(Number),
    });
    emu.control.clearRequests();
    await ok(t, 'set_volume', { volume: 10, device: 'living room speaker' });
    await ok(t, 'set_volume', { volume: 11, device: 'Living Room Speaker' });
    expect(emu.control.requests({ path: '/v1/me/player/devices' })).toHaveLength(0);
    emu.control.addDevice({ name: 'Garage' });
    await ok(t, 'set_volume', { volume: 12, device: 'garage' });
    expect(emu.control.requests({ path: '/v1/me/player/devices' })).toHaveLength(1);
  });

  it('commands without an active device fail clearly', async () => {
    const text = await fails(t, 'next');
    expect(text).toMatch(/no Spotify device is active/);
    expect(text).toMatch(/get_devices/);
  });

  it('current_track is null when nothing plays; history lists recent plays', async () => {
    expect(await ok(t, 'current_track')).toEqual({});
    const history = (await ok(t, 'history', { limit: 5 })) as { played_at: string }[];
    expect(history).toHaveLength(5);
    expect(history[0]).toMatchObject({ type: 'track', played_at: expect.any(String) });
    const cutoff = history[2]!.played_at;
    const older = (await ok(t, 'history', { before: cutoff, limit: 50 })) as {
      played_at: string;
    }[];
    expect(older[0]!.played_at).toBe(history[3]!.played_at);
    const seconds = Date.parse(cutoff) / 1000;
    expect(await ok(t, 'history', { before: seconds, limit: 1 })).toEqual(older.slice(0, 1));
    expect(
      emu.control.requests({ path: '/v1/me/player/recently-played' }).at(-1)!.query,
    ).toMatchObject({ before: String(Date.parse(cutoff)) });
    expect(await fails(t, 'history', { before: seconds, after: seconds })).toMatch(/not both/);
    expect(await fails(t, 'history', { limit: 51 })).toMatch(/limit/);
    expect(await fails(t, 'history', { after: 'yesterday' })).toMatch(/ISO datetime/);
  });
});
