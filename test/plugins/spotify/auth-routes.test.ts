import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import { makeApp, registerAndToken } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { SESSION_COOKIE } from '../../../src/http/guard.ts';
import { SCOPES } from '../../../src/plugins/music/spotify/config.ts';
import { fails, ok, pluginState, REDIRECT, spotifyApp, startEmu } from './helpers.ts';

// The JSON routes behind Settings → Integrations → Spotify, through the app's own guard.

const STATUS = '/spotify/auth/status';
const START = '/spotify/auth/start';
const DISCONNECT = '/spotify/auth/disconnect';

let emu: SpotifyEmulator;
let t: TestApp;
let bearer: { authorization: string };
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  emu = await startEmu();
  t = await spotifyApp(emu);
  bearer = { authorization: `Bearer ${await registerAndToken(t.app)}` };
  const login = await t.app.inject({
    method: 'POST',
    url: '/login',
    payload: { username: 'ada', password: 'correct horse battery' },
  });
  const cookie = [login.headers['set-cookie']]
    .flat()
    .map((c) => c!.split(';')[0]!)
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
  session = { cookie, csrf: login.json<{ csrf_token: string }>().csrf_token };
});
afterAll(async () => {
  await t?.close();
  await emu?.close();
});

const errorsOf = (body: string) =>
  (JSON.parse(body) as { response: { errors: string[] } }).response.errors;

/** Follows an authorization address through the emulator to the callback route. */
async function complete(url: string, user?: string) {
  const target = new URL(url);
  if (user) target.searchParams.set('emulator_user', user);
  const res = await fetch(target, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const cb = new URL(res.headers.get('location')!);
  return t.app.inject({ method: 'GET', url: `${cb.pathname}${cb.search}` });
}

async function status(): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'GET', url: STATUS, headers: bearer });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json();
}

async function start(payload?: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: START, headers: bearer, payload });
  expect(res.statusCode).toBe(200);
  return res.json<{ url: string; expires_at: number; already_connected: boolean }>();
}

describe('the guard', () => {
  it('answers 401 without credentials, on every route', async () => {
    for (const [method, url] of [
      ['GET', STATUS],
      ['POST', START],
      ['POST', DISCONNECT],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(errorsOf(res.body)[0]).toMatch(/authentication required/);
    }
  });

  it('takes the session cookie, and wants its X-CSRF-Token on the POSTs', async () => {
    const read = await t.app.inject({
      method: 'GET',
      url: STATUS,
      headers: { cookie: session.cookie },
    });
    expect(read.statusCode).toBe(200);
    for (const url of [START, DISCONNECT]) {
      const res = await t.app.inject({ method: 'POST', url, headers: { cookie: session.cookie } });
      expect(res.statusCode, url).toBe(403);
      expect(errorsOf(res.body)[0]).toMatch(/X-CSRF-Token/);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: START,
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('connect, status and disconnect', () => {
  it('reports a configured plugin that is not connected', async () => {
    expect(await status()).toEqual({
      configured: true,
      connected: false,
      client_id: emu.clientId,
      redirect_uri: REDIRECT,
      flow: 'client_secret',
      user: null,
      user_error: null,
      scopes: [],
      missing_scopes: [],
      expires_at: null,
      authorized_at: null,
      refreshable: false,
    });
  });

  it('starts an authorization whose address completes it, with a styled page', async () => {
    const before = Date.now() / 1000;
    const started = await start();
    expect(started.already_connected).toBe(false);
    expect(started.expires_at).toBeGreaterThan(before + 800); // auth_state_ttl_seconds: 900
    const url = new URL(started.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${emu.accountsUrl}/authorize`);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.has('show_dialog')).toBe(false);

    const page = await complete(started.url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Spotify connected · Pipit</title>');
    expect(page.body).toContain(
      'Pipit is now authorized to use Spotify as <strong>&#34;Pipit Tester&#34; (pipit-tester)</strong>',
    );
    expect(page.body).toContain('<link rel="stylesheet" href="auth_callback.css">');
    expect(page.body).toContain(
      '<meta http-equiv="refresh" content="4; url=../settings/integrations">',
    );
    expect(page.body).toContain(
      'href="../settings/integrations">Back to Settings → Integrations</a>',
    );
    // The document security policy stays on: the page has no inline script or style to allow.
    expect(page.headers['content-security-policy']).toMatch(/style-src 'self'/);
    expect(page.body).not.toMatch(/<script|<style|style=/);

    const css = await t.app.inject({ method: 'GET', url: '/spotify/auth_callback.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('.card-ok');
  });

  it('reports who is connected, the scopes and the expiry; the account is read once', async () => {
    const now = Date.now() / 1000;
    const s = await status();
    expect(s).toMatchObject({
      configured: true,
      connected: true,
      user: { id: 'pipit-tester', display_name: 'Pipit Tester' },
      user_error: null,
      missing_scopes: [],
      refreshable: true,
    });
    expect([...(s.scopes as string[])].sort()).toEqual([...SCOPES].sort());
    expect(s.expires_at).toBeGreaterThan(now + 3500); // the emulator's tokens live 3600 s
    expect(s.expires_at).toBeLessThan(now + 3700);
    expect(s.authorized_at).toBeGreaterThan(now - 60);
    // The callback read the account; status calls do not ask Spotify again.
    const reads = emu.control.requests({ path: '/v1/me' }).length;
    await status();
    expect(emu.control.requests({ path: '/v1/me' })).toHaveLength(reads);
  });

  it('offers a reconnect that lets Spotify ask again, and can switch accounts', async () => {
    const again = await start();
    expect(again.already_connected).toBe(true);
    expect(new URL(again.url).searchParams.get('show_dialog')).toBe('true');
    expect(new URL((await start({ show_dialog: false })).url).searchParams.has('show_dialog')).toBe(
      false,
    );
    const bad = await t.app.inject({
      method: 'POST',
      url: START,
      headers: bearer,
      payload: { show_dialog: 'yes', extra: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorsOf(bad.body).join('\n')).toMatch(/unknown field "extra"/);

    const page = await complete(again.url, 'other-tester');
    expect(page.body).toContain('(other-tester)');
    expect((await status()).user).toEqual({ id: 'other-tester', display_name: 'Other Tester' });
  });

  it('disconnects: the tokens are gone and actions ask for an authorization', async () => {
    const res = await t.app.inject({ method: 'POST', url: DISCONNECT, headers: bearer });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ disconnected: true });
    expect(await status()).toMatchObject({ connected: false, user: null, expires_at: null });
    expect(pluginState(t).auth.tokens()).toBeUndefined();
    // The action prints the address to open as well: kept off the test output.
    const print = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await fails(t, 'get_devices')).toMatch(/not authorized yet: open http/);
    print.mockRestore();
    const twice = await t.app.inject({ method: 'POST', url: DISCONNECT, headers: bearer });
    expect(twice.json()).toEqual({ disconnected: false });
  });
});

describe('the callback page', () => {
  it('explains a failure, escaped, with the way back and no automatic return', async () => {
    const { url } = await start();
    const state = new URL(url).searchParams.get('state')!;
    const res = await t.app.inject({
      method: 'GET',
      url: `/spotify/auth_callback?state=${state}&error=${encodeURIComponent('<b>denied</b>')}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<title>Spotify authorization failed · Pipit</title>');
    expect(res.body).toContain('Spotify did not authorize Pipit: &#60;b&#62;denied&#60;/b&#62;.');
    expect(res.body).toContain('href="../settings/integrations"');
    expect(res.body).not.toContain('http-equiv="refresh"');
    const unknown = await t.app.inject({ method: 'GET', url: '/spotify/auth_callback?state=nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Unknown or expired authorization state');
  });
});

describe('other set-ups', () => {
  it('PKCE without a client secret; an account Spotify will not name is reported, not fatal', async () => {
    const p = await spotifyApp(emu, {}, { secret: false });
    try {
      const token = { authorization: `Bearer ${await registerAndToken(p.app)}` };
      const started = await p.app.inject({ method: 'POST', url: START, headers: token });
      const url = new URL(started.json<{ url: string }>().url);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      emu.control.addFault({ path: '/v1/me', response: { kind: 'server-error', status: 500 } });
      try {
        const res = await fetch(url, { redirect: 'manual' });
        const cb = new URL(res.headers.get('location')!);
        const page = await p.app.inject({ method: 'GET', url: `${cb.pathname}${cb.search}` });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('Pipit is now authorized to use Spotify.</p>');
        const s = (await p.app.inject({ method: 'GET', url: STATUS, headers: token })).json<
          Record<string, unknown>
        >();
        expect(s).toMatchObject({ connected: true, flow: 'pkce', user: null });
        expect(s.user_error).toMatch(/500|server error/i);
      } finally {
        emu.control.clearFaults();
      }
      // Once Spotify answers, the account is read and kept.
      const s = (await p.app.inject({ method: 'GET', url: STATUS, headers: token })).json();
      expect(s).toMatchObject({ user: { id: 'pipit-tester' }, user_error: null });
      expect((await ok(p, 'get_devices')).length).toBe(3);
    } finally {
      await p.close();
    }
  });

  it('without a music.spotify section the routes do not exist (the UI says "not configured")', async () => {
    const bare = await makeApp();
    try {
      const token = await registerAndToken(bare.app);
      const res = await bare.app.inject({
        method: 'GET',
        url: STATUS,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      expect(res.statusCode).toBe(404);
      expect(errorsOf(res.body)[0]).toMatch(/no route GET \/spotify\/auth\/status/);
    } finally {
      await bare.close();
    }
  });
});
