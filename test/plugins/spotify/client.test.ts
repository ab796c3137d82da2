import { describe, expect, it } from 'vitest';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import {
  authorize,
  fails,
  fakeTimers,
  ok,
  pluginState,
  spotifyApp,
  startPlaying,
  useAuthorizedSpotify,
} from './helpers.ts';

let emu: SpotifyEmulator;
let t: TestApp;
let timers: ReturnType<typeof fakeTimers>;

// request_timeout_seconds is short so that the timeout test is quick, but not so short that a
// 100-item page of a 5,000-track playlist misses it on a loaded test machine (0.2 s did).
useAuthorizedSpotify((f) => ({ emu, t } = f), {
  config: { max_retry_after_seconds: 30, request_timeout_seconds: 1, max_retries: 2 },
  each: () => {
    emu.control.configure({ playerSuccess: 204 });
    timers = fakeTimers();
    pluginState(t).auth.timers = timers;
    pluginState(t).client.blockedUntil = 0;
    pluginState(t).client.pausedUntil = 0;
  },
});

const log = (path = '/v1/*') => emu.control.requests({ path }).map((r) => r.status);

describe('client behaviour', () => {
  it('429 within the cap: waits Retry-After, then succeeds', async () => {
    emu.control.addFault({
      path: '/v1/me/player/devices',
      times: 2,
      response: { kind: 'rate-limit', retryAfter: 7 },
    });
    expect(await ok(t, 'get_devices')).toHaveLength(3);
    expect(timers.waits).toEqual([7000, 7000]);
    expect(log()).toEqual([429, 429, 200]);
  });

  it('429 beyond the cap fails at once saying when to retry; later calls fail fast', async () => {
    emu.control.addFault({
      path: '/v1/me/player/devices',
      times: 1,
      response: { kind: 'rate-limit', retryAfter: 3600, variant: 'quota' },
    });
    const text = await fails(t, 'get_devices');
    expect(text).toMatch(
      /Spotify rate limit \(the app quota is exhausted\) on GET \/v1\/me\/player\/devices: retry after 3600 s \(at 20\d\d-/,
    );
    expect(timers.waits).toEqual([]);
    expect(log()).toEqual([429]);
    // Parallel/later calls do not hit the API while blocked.
    expect(await fails(t, 'status')).toMatch(/retry after 3600 s/);
    expect(log()).toEqual([429]);
    timers.advance(3601_000);
    expect((await ok(t, 'status')).state).toBe('stop');
  });

  it('429 while paging: the other requests in flight wait it out too, and the read completes', async () => {
    emu.control.addFault({
      path: '/v1/playlists/*/items',
      times: 1,
      response: { kind: 'rate-limit', retryAfter: 4 },
    });
    const list = await ok(t, 'get_playlist', {
      playlist: `spotify:playlist:${emu.control.seed.bigPlaylistId}`,
    });
    expect(list.tracks).toHaveLength(5000);
    expect(log('/v1/playlists/*').filter((s) => s === 429)).toHaveLength(1);
    // Waits are recorded, not slept: every request sent after the 429 waited (what was left of) 4 s.
    expect(timers.waits.length).toBeGreaterThan(1);
    expect(timers.waits.filter((ms) => !(ms > 0 && ms <= 4000))).toEqual([]);
  });

  it('the rate-limit error carries RATE_LIMITED and retryAfter', async () => {
    emu.control.addFault({
      path: '/v1/me/player',
      times: 1,
      response: { kind: 'rate-limit', retryAfter: 100, variant: 'empty' },
    });
    const { error } = await t.service.execute(
      { type: 'request', action: 'music.spotify.status' },
      { transport: 'library' },
    );
    const cause = error!.cause as { code: string; details: { retryAfter: number } };
    expect(cause.code).toBe('RATE_LIMITED');
    expect(cause.details.retryAfter).toBe(100);
  });

  it('5xx: GETs and PUTs retry with backoff; POSTs are not repeated', async () => {
    emu.control.addFault({
      path: '/v1/me/player/devices',
      times: 2,
      response: { kind: 'server-error', status: 503, body: 'html' },
    });
    expect(await ok(t, 'get_devices')).toHaveLength(3);
    expect(log()).toEqual([503, 503, 200]);
    expect(timers.waits).toHaveLength(2);
    expect(timers.waits[1]!).toBeGreaterThan(timers.waits[0]! * 1.2);
    emu.control.addFault({
      path: '/v1/me/player/devices',
      times: 3,
      response: { kind: 'server-error', status: 500 },
    });
    expect(await fails(t, 'get_devices')).toMatch(
      /Spotify answered 500 to GET \/v1\/me\/player\/devices: Server error/,
    );
    await startPlaying(t, emu);
    emu.control.clearRequests();
    emu.control.addFault({
      method: 'POST',
      path: '/v1/me/player/next',
      times: 1,
      response: { kind: 'server-error', status: 502, body: 'empty' },
    });
    expect(await fails(t, 'next')).toMatch(/answered 502 to POST/);
    expect(log('/v1/me/player/next')).toEqual([502]);
  });

  it('a request slower than request_timeout_seconds times out (and GETs retry)', async () => {
    emu.control.addFault({ path: '/v1/me/player/devices', delayMs: 2500 });
    const started = performance.now();
    const text = await fails(t, 'get_devices');
    expect(text).toMatch(
      /did not answer GET \/v1\/me\/player\/devices within 1 s \(request_timeout_seconds\) after 3 attempt/,
    );
    // Three attempts cut at 1 s each, not three answers waited for (7.5 s).
    expect(performance.now() - started).toBeLessThan(6000);
    emu.control.clearFaults();
    emu.control.addFault({ path: '/v1/me/player/devices', delayMs: 2500, times: 1 });
    expect(await ok(t, 'get_devices')).toHaveLength(3);
  });

  it('network errors retry, then fail clearly', async () => {
    const state = pluginState(t);
    const saved = state.config.api_url;
    Object.assign(state.config, { api_url: 'http://127.0.0.1:1/v1' });
    try {
      expect(await fails(t, 'get_devices')).toMatch(
        /could not be reached for GET \/v1\/me\/player\/devices after 3 attempt/,
      );
      expect(timers.waits).toHaveLength(2);
    } finally {
      Object.assign(state.config, { api_url: saved });
    }
  });

  it('player commands accept 200 with a text body and retry a 202', async () => {
    emu.control.configure({ playerSuccess: '200-text' });
    await startPlaying(t, emu);
    await ok(t, 'pause');
    expect(emu.control.player().isPlaying).toBe(false);
    emu.control.addFault({
      method: 'PUT',
      path: '/v1/me/player/play',
      times: 1,
      response: { kind: 'accepted' },
    });
    await ok(t, 'play');
    expect(log('/v1/me/player/play').slice(-2)).toEqual([202, 200]);
    expect(emu.control.player().isPlaying).toBe(true);
    emu.control.addFault({
      method: 'PUT',
      path: '/v1/me/player/play',
      response: { kind: 'accepted' },
    });
    expect(
      await fails(t, 'play', { resource: `spotify:album:${emu.control.seed.fixedAlbumId}` }),
    ).toMatch(/still waking up after 3 attempts/);
  });

  it('premium required and restrictions become clear errors', async () => {
    emu.control.addFault({ path: '/v1/me/player/next', response: { kind: 'premium-required' } });
    expect(await fails(t, 'next')).toMatch(/Spotify Premium is required/);
    emu.control.clearFaults();
    await startPlaying(t, emu);
    emu.control.addFault({
      path: '/v1/me/player/previous',
      response: { kind: 'restriction', reason: 'NO_PREV_TRACK' },
    });
    expect(await fails(t, 'previous')).toMatch(
      /Spotify answered 403 to POST \/v1\/me\/player\/previous: .*Restriction violated.*NO_PREV_TRACK/,
    );
  });

  it('a free account gets PREMIUM_REQUIRED end to end', async () => {
    const free = await spotifyApp(emu);
    try {
      expect((await authorize(free, { user: 'free-tester' })).status).toBe(200);
      expect(await fails(free, 'play', { device: 'Living Room Speaker' })).toMatch(
        /Spotify Premium is required/,
      );
    } finally {
      await free.close();
    }
  });
});
