import { describe, expect, test } from 'vitest';
import type { Harness } from './support/harness.ts';
import { ALL, useHarness } from './support/harness.ts';

let h: Harness;
useHarness((harness) => (h = harness));

const ctl = () => h.emu.control;

describe('faults', () => {
  test('401 expiry for the next N matching requests, visible in the request log', async () => {
    ctl().addFault({
      method: 'GET',
      path: '/v1/me',
      times: 2,
      response: { kind: 'token-expired' },
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.call('GET', '/me')).status);
    expect(statuses).toEqual([401, 401, 200]);
    const log = ctl().requests({ method: 'GET', path: '/v1/me' });
    expect(log.map((e) => e.status)).toEqual([401, 401, 200]);
    expect(log[0]!.fault).toMatch(/^fault-/);
    expect(log[2]!.fault).toBeUndefined();
    expect(ctl().faults()).toEqual([]);
  });

  test('429 with Retry-After: rate, QUOTA_EXCEEDED and empty-body variants', async () => {
    ctl().addFault({
      path: '/v1/search',
      times: 1,
      response: { kind: 'rate-limit', retryAfter: 13749, variant: 'quota' },
    });
    const quota = await h.call('GET', '/search', { query: { q: 'x', type: 'track' } });
    expect(quota.status).toBe(429);
    expect(quota.headers.get('retry-after')).toBe('13749');
    expect(quota.json).toEqual({
      error: { status: 429, message: 'Too many requests', reason: 'QUOTA_EXCEEDED' },
    });
    ctl().addFault({
      path: '/v1/search',
      times: 1,
      response: { kind: 'rate-limit', retryAfter: 3 },
    });
    expect(
      (await h.call('GET', '/search', { query: { q: 'x', type: 'track' } })).json.error.message,
    ).toBe('API rate limit exceeded');
    ctl().addFault({
      path: '/v1/search',
      times: 1,
      response: { kind: 'rate-limit', variant: 'empty' },
    });
    const empty = await h.call('GET', '/search', { query: { q: 'x', type: 'track' } });
    expect([empty.status, empty.text, empty.headers.get('content-length')]).toEqual([429, '', '0']);
  });

  test('5xx targeted by method and path glob (json, html, empty bodies)', async () => {
    ctl().addFault({
      method: 'PUT',
      path: '/v1/me/player/*',
      response: { kind: 'server-error', status: 502, body: 'html' },
    });
    ctl().addFault({
      method: 'GET',
      path: '/v1/me/player/devices',
      times: 1,
      response: { kind: 'server-error', status: 503, body: 'empty' },
    });
    ctl().addFault({
      method: 'GET',
      path: '/v1/me/player/devices',
      times: 1,
      response: { kind: 'server-error' },
    });
    const put = await h.call('PUT', '/me/player/pause');
    expect(put.status).toBe(502);
    expect(put.headers.get('content-type')).toMatch(/text\/html/);
    expect((await h.call('GET', '/me/player/devices')).status).toBe(503);
    expect((await h.call('GET', '/me/player/devices')).json).toEqual({
      error: { status: 500, message: 'Server error.' },
    });
    expect((await h.call('GET', '/me/player/devices')).status).toBe(200);
    expect((await h.call('PUT', '/me/player/shuffle', { query: { state: true } })).status).toBe(
      502,
    );
  });

  test('player faults: NO_ACTIVE_DEVICE, PREMIUM_REQUIRED, and 202 on play without effect', async () => {
    await h.call('PUT', '/me/player', { body: { device_ids: [h.seed.deviceIds.speaker] } });
    ctl().addFault({
      path: '/v1/me/player/next',
      times: 1,
      response: { kind: 'no-active-device' },
    });
    expect((await h.call('POST', '/me/player/next')).json.error.reason).toBe('NO_ACTIVE_DEVICE');
    ctl().addFault({
      path: '/v1/me/player/pause',
      times: 1,
      response: { kind: 'premium-required' },
    });
    expect((await h.call('PUT', '/me/player/pause')).json.error.reason).toBe('PREMIUM_REQUIRED');
    ctl().addFault({
      method: 'PUT',
      path: '/v1/me/player/play',
      times: 1,
      response: { kind: 'accepted' },
    });
    const body = { context_uri: `spotify:album:${h.seed.fixedAlbumId}` };
    const accepted = await h.call('PUT', '/me/player/play', { body });
    expect([accepted.status, accepted.text]).toEqual([202, '']);
    expect(ctl().player().current).toBeNull();
    expect((await h.call('PUT', '/me/player/play', { body })).status).toBe(204);
    expect(ctl().player().isPlaying).toBe(true);
  });

  test('token endpoint faults', async () => {
    const { refreshToken } = ctl().mintToken({ scopes: ALL, withRefresh: true });
    ctl().addFault({
      path: '/api/token',
      times: 1,
      response: { kind: 'oauth', error: 'invalid_grant', description: 'Refresh token revoked' },
    });
    const basic = { id: h.emu.clientId, secret: h.emu.clientSecret! };
    const res = await h.tokenRequest(
      { grant_type: 'refresh_token', refresh_token: refreshToken! },
      basic,
    );
    expect(res.json).toEqual({
      error: 'invalid_grant',
      error_description: 'Refresh token revoked',
    });
    expect(
      (await h.tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken! }, basic))
        .status,
    ).toBe(200);
  });

  test('latency makes a client-side timeout fire', async () => {
    ctl().addFault({ path: '/v1/me', times: 1, delayMs: 300 });
    const started = performance.now();
    const call = fetch(`${h.emu.apiUrl}/me`, {
      headers: { authorization: `Bearer ${h.token}` },
      signal: AbortSignal.timeout(50),
    });
    await expect(call).rejects.toThrow(/timeout|aborted/i);
    expect(performance.now() - started).toBeLessThan(300);
  });

  test('rolling-window rate limiter runs on the virtual clock', async () => {
    ctl().setRateLimit({ maxRequests: 3, windowMs: 30_000, retryAfter: 30 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.call('GET', '/me')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    ctl().advanceClock(30_001);
    expect((await h.call('GET', '/me')).status).toBe(200);
    ctl().setRateLimit(null);
  });
});

describe('control HTTP API', () => {
  test('faults, request log and clock over HTTP', async () => {
    const fault = await h.control('POST', '/faults', {
      method: 'GET',
      path: '/v1/me/player/devices',
      response: { kind: 'server-error', status: 503 },
    });
    expect(fault.json.id).toMatch(/^fault-/);
    expect((await h.call('GET', '/me/player/devices')).status).toBe(503);
    expect((await h.control('GET', '/faults')).json).toHaveLength(1);
    await h.control('DELETE', `/faults/${fault.json.id as string}`);
    expect((await h.call('GET', '/me/player/devices')).status).toBe(200);
    await h.call('PUT', '/me/library', { query: { uris: `spotify:album:${h.seed.fixedAlbumId}` } });
    const log = (await h.control('GET', '/requests?method=PUT')).json;
    expect(log).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: '/v1/me/library',
        query: { uris: `spotify:album:${h.seed.fixedAlbumId}` },
        status: 200,
      }),
    ]);
    await h.control('DELETE', '/requests');
    expect((await h.control('GET', '/requests')).json).toEqual([]);
    const before = (await h.control('GET', '/clock')).json.now;
    expect((await h.control('POST', '/clock/advance', { ms: 1500 })).json.now).toBe(before + 1500);
  });

  test('devices, tokens, config, player and reset over HTTP', async () => {
    const device = (await h.control('POST', '/devices', { name: 'Kitchen', type: 'Speaker' })).json;
    let devices = (await h.call('GET', '/me/player/devices')).json.devices;
    expect(devices.map((d: { name: string }) => d.name)).toContain('Kitchen');
    await h.control('PATCH', `/devices/${device.id as string}`, { isRestricted: true });
    expect(
      (await h.call('PUT', '/me/player/play', { query: { device_id: device.id } })).status,
    ).toBe(403);
    await h.control('DELETE', `/devices/${device.id as string}`);
    devices = (await h.call('GET', '/me/player/devices')).json.devices;
    expect(devices).toHaveLength(3);
    const minted = (
      await h.control('POST', '/tokens', { scopes: ['user-read-private'], userId: 'other-tester' })
    ).json;
    expect((await h.call('GET', '/me', { token: minted.accessToken })).json.id).toBe(
      'other-tester',
    );
    await h.control('PATCH', '/config', { playerSuccess: '200-text' });
    await h.call('PUT', '/me/player', { body: { device_ids: [h.seed.deviceIds.laptop] } });
    expect((await h.control('GET', '/player')).json.deviceId).toBe(h.seed.deviceIds.laptop);
    expect((await h.control('GET', '/config')).json.playerSuccess).toBe('200-text');
    await h.control('PATCH', '/config', { playerSuccess: 204 });
    const seed = (await h.control('POST', '/reset', {})).json;
    expect(seed.bigPlaylistId).toBe(h.seed.bigPlaylistId);
    expect((await h.control('GET', '/player')).json.deviceId).toBeNull();
    expect((await h.control('GET', '/nope')).status).toBe(404);
  });

  test('the same seed gives the same catalog; another seed a different one', async () => {
    const first = h.seed.bigPlaylistId;
    const again = ctl().reset();
    expect(again.bigPlaylistId).toBe(first);
    const other = ctl().reset({ seed: 2 });
    expect(other.bigPlaylistId).not.toBe(first);
    ctl().reset({ seed: 1 });
  });
});
