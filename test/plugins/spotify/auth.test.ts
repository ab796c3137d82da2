import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import {
  authorize,
  fails,
  fakeTimers,
  ok,
  pluginState,
  REDIRECT,
  spotifyApp,
  startEmu,
} from './helpers.ts';

let emu: SpotifyEmulator;
const apps: TestApp[] = [];

beforeAll(async () => {
  emu = await startEmu();
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await emu.close();
});

async function app(
  ...args: Parameters<typeof spotifyApp> extends [unknown, ...infer R] ? R : never
) {
  const a = await spotifyApp(emu, ...args);
  apps.push(a);
  return a;
}

const tokenRequests = () => emu.control.requests({ method: 'POST', path: '/api/token' });
const muteStdout = () => vi.spyOn(process.stdout, 'write').mockImplementation(() => true);

describe('authorization', () => {
  it('before authorization an action fails with the authorize address, also logged and printed', async () => {
    const t = await app();
    const out = muteStdout();
    const warn = vi.spyOn(pluginState(t).auth.log, 'warn');
    const text = await fails(t, 'status');
    const url = /open (\S+) in a browser/.exec(text)![1]!;
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${emu.accountsUrl}/authorize`);
    expect(Object.fromEntries(parsed.searchParams)).toMatchObject({
      client_id: emu.clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      state: expect.stringMatching(/^[\w-]{32}$/),
    });
    expect(parsed.searchParams.get('scope')!.split(' ')).toEqual(
      expect.arrayContaining([
        'user-read-playback-state',
        'playlist-modify-private',
        'user-library-read',
      ]),
    );
    expect(out.mock.calls.map((c) => String(c[0])).join('')).toContain(url);
    expect(warn).toHaveBeenCalledWith({ authorize_url: url }, expect.stringContaining('authoriz'));
    // The same address is reused while valid, and nothing was sent to the API.
    expect(await fails(t, 'status')).toContain(url);
    expect(emu.control.requests({ path: '/v1/*' })).toHaveLength(0);
    out.mockRestore();
    // Completing that very address authorizes.
    const res = await fetch(url, { redirect: 'manual' });
    const cb = new URL(res.headers.get('location')!);
    const answer = await t.app.inject({ method: 'GET', url: `${cb.pathname}${cb.search}` });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/text\/html/);
    expect(answer.body).toContain('authorized');
    expect((await ok(t, 'status')).state).toBe('stop');
    // The state is single-use.
    const replay = await t.app.inject({ method: 'GET', url: `${cb.pathname}${cb.search}` });
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('Unknown or expired authorization state');
  });

  it('client-secret flow: Basic auth on the token request; tokens survive a restart', async () => {
    const t = await app();
    emu.control.clearRequests();
    expect((await authorize(t)).status).toBe(200);
    const [exchange] = tokenRequests();
    expect(exchange!.body).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
    });
    expect(exchange!.body).not.toHaveProperty('code_verifier');
    const dir = t.dir;
    const stored = t.service.store.pluginKv('music.spotify').get<Record<string, unknown>>('tokens');
    expect(stored).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    await t.app.close();
    await t.service.close();
    const again = await spotifyApp(emu, {}, { dir });
    apps.push(again);
    expect((await ok(again, 'get_devices')).length).toBe(3);
  });

  it('PKCE flow for a public client (no secret)', async () => {
    const pub = emu.control.registerApp({
      clientSecret: null,
      redirectUris: ['http://127.0.0.1/spotify/auth_callback'],
    });
    const t = await app({}, { clientId: pub.clientId, secret: false });
    const { url } = pluginState(t).auth.authorizeUrl();
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    emu.control.clearRequests();
    expect((await authorize(t)).status).toBe(200);
    expect(tokenRequests()[0]!.body).toMatchObject({
      grant_type: 'authorization_code',
      client_id: pub.clientId,
      code_verifier: expect.stringMatching(/^[\w-]{43,128}$/),
    });
    expect((await ok(t, 'get_devices')).length).toBe(3);
    // A refresh for a public client sends its client_id.
    emu.control.advanceClock(3601_000);
    emu.control.clearRequests();
    expect((await ok(t, 'get_devices')).length).toBe(3);
    expect(tokenRequests()[0]!.body).toMatchObject({
      grant_type: 'refresh_token',
      client_id: pub.clientId,
    });
  });

  it('a denied or forged callback is refused', async () => {
    const t = await app();
    const { url, state } = pluginState(t).auth.authorizeUrl();
    const denied = await fetch(`${url}&emulator_decision=deny`, { redirect: 'manual' });
    const cb = new URL(denied.headers.get('location')!);
    const answer = await t.app.inject({ method: 'GET', url: `${cb.pathname}${cb.search}` });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('access_denied');
    expect(state).toBe(cb.searchParams.get('state'));
    const forged = await t.app.inject({
      method: 'GET',
      url: '/spotify/auth_callback?code=x&state=made-up',
    });
    expect(forged.statusCode).toBe(400);
  });

  it('an expired state is refused', async () => {
    const t = await app({ auth_state_ttl_seconds: 60 });
    const timers = fakeTimers();
    pluginState(t).auth.timers = timers;
    const { url } = pluginState(t).auth.authorizeUrl();
    const res = await fetch(url, { redirect: 'manual' });
    const cb = new URL(res.headers.get('location')!);
    timers.advance(61_000);
    const answer = await t.app.inject({ method: 'GET', url: `${cb.pathname}${cb.search}` });
    expect(answer.statusCode).toBe(400);
  });
});

describe('token refresh', () => {
  it('refreshes on a 401 after the emulator clock passes the expiry, and keeps the refresh token', async () => {
    const t = await app();
    await authorize(t);
    const before = pluginState(t).auth.tokens()!;
    emu.control.advanceClock(3601_000);
    emu.control.clearRequests();
    expect((await ok(t, 'get_devices')).length).toBe(3);
    expect(emu.control.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /v1/me/player/devices 401',
      'POST /api/token 200',
      'GET /v1/me/player/devices 200',
    ]);
    const after = pluginState(t).auth.tokens()!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBe(before.refresh_token);
  });

  it('refreshes before expiry on the plugin clock, without a 401', async () => {
    const t = await app();
    await authorize(t);
    const timers = fakeTimers();
    pluginState(t).auth.timers = timers;
    timers.advance(3550_000); // within refresh_margin_seconds (60) of the expiry
    emu.control.clearRequests();
    await ok(t, 'get_devices');
    expect(emu.control.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /api/token 200',
      'GET /v1/me/player/devices 200',
    ]);
  });

  it('many concurrent actions after expiry make exactly one token request', async () => {
    const t = await app();
    await authorize(t);
    emu.control.advanceClock(3601_000);
    emu.control.clearRequests();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ok(t, i % 2 ? 'get_devices' : 'status')),
    );
    expect(results).toHaveLength(20);
    expect(tokenRequests()).toHaveLength(1);
  });

  it('stores a rotated refresh token', async () => {
    const t = await app();
    await authorize(t);
    const old = pluginState(t).auth.tokens()!.refresh_token;
    emu.control.configure({ refreshRotation: 'always' });
    emu.control.advanceClock(3601_000);
    await ok(t, 'get_devices');
    expect(pluginState(t).auth.tokens()!.refresh_token).not.toBe(old);
    emu.control.configure({ refreshRotation: 'none' });
  });

  it('invalid_grant asks for re-authorization with the address and forgets the tokens', async () => {
    const t = await app();
    await authorize(t);
    emu.control.revokeToken(pluginState(t).auth.tokens()!.refresh_token!);
    emu.control.advanceClock(3601_000);
    const out = muteStdout();
    const text = await fails(t, 'get_devices');
    out.mockRestore();
    expect(text).toMatch(
      /no longer accepts the stored authorization \(Refresh token revoked\); re-authorize: open http/,
    );
    expect(pluginState(t).auth.tokens()).toBeUndefined();
  });
});

describe('scopes', () => {
  it('a token without a needed scope asks for re-authorization', async () => {
    const other = await startSpotifyEmulator({
      app: { redirectUris: ['http://127.0.0.1/spotify/auth_callback'] },
    });
    try {
      const t = await spotifyApp(other);
      apps.push(t);
      const minted = other.control.mintToken({
        scopes: ['user-read-playback-state'],
        withRefresh: true,
      });
      t.service.store.pluginKv('music.spotify').set('tokens', {
        access_token: minted.accessToken,
        refresh_token: minted.refreshToken,
        expires_at: Date.now() + 3600_000,
        scope: 'user-read-playback-state',
        client_id: other.clientId,
        obtained_at: Date.now(),
      });
      expect((await ok(t, 'get_devices')).length).toBe(3);
      const out = muteStdout();
      expect(await fails(t, 'get_tracks')).toMatch(/lacks a scope .*re-authorize: open http/);
      out.mockRestore();
    } finally {
      await other.close();
    }
  });
});
