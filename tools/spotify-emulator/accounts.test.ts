import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Harness } from './support/harness.ts';
import { ALL, useHarness } from './support/harness.ts';

let h: Harness;
useHarness((harness) => (h = harness), { options: { tokenTtlSeconds: 600 }, reset: false });

const REDIRECT = 'http://127.0.0.1:5173/callback';

async function authorize(params: Record<string, string>) {
  const url = new URL(`${h.emu.accountsUrl}/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: h.emu.clientId,
    redirect_uri: REDIRECT,
    ...params,
  })) {
    url.searchParams.set(k, v);
  }
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  return { res, location: location ? new URL(location) : null, body: await res.text() };
}

async function codeFor(params: Record<string, string> = {}) {
  const { location } = await authorize({
    scope: 'user-read-private playlist-read-private',
    state: 'xyz',
    ...params,
  });
  return location!.searchParams.get('code')!;
}

const basic = () => ({ id: h.emu.clientId, secret: h.emu.clientSecret! });

describe('authorize', () => {
  test('auto-consents and redirects with code and state (loopback literal, any port)', async () => {
    const { res, location } = await authorize({ scope: 'user-read-private', state: 's1' });
    expect(res.status).toBe(302);
    expect(location!.origin + location!.pathname).toBe(REDIRECT);
    expect(location!.searchParams.get('state')).toBe('s1');
    expect(location!.searchParams.get('code')).toMatch(/^AQ/);
  });

  test('a real client following the redirect lands on the redirect URI', async () => {
    const { createServer } = await import('node:http');
    let seen = '';
    const cb = createServer((req, res) => {
      seen = req.url ?? '';
      res.end('ok');
    });
    await new Promise<void>((r) => cb.listen(0, '127.0.0.1', () => r()));
    const port = (cb.address() as { port: number }).port;
    const url = `${h.emu.accountsUrl}/authorize?response_type=code&client_id=${h.emu.clientId}&redirect_uri=${encodeURIComponent(`http://127.0.0.1:${port}/callback`)}&state=follow`;
    const res = await fetch(url);
    await new Promise<void>((r) => cb.close(() => r()));
    expect(await res.text()).toBe('ok');
    expect(seen).toMatch(/^\/callback\?code=AQ[^&]+&state=follow$/);
  });

  test('deny per request or by configuration gives error=access_denied', async () => {
    const perRequest = await authorize({ state: 'd', emulator_decision: 'deny' });
    expect(perRequest.location!.searchParams.get('error')).toBe('access_denied');
    expect(perRequest.location!.searchParams.get('state')).toBe('d');
    h.emu.control.configure({ authorizeDecision: 'deny' });
    const configured = await authorize({});
    h.emu.control.configure({ authorizeDecision: 'allow' });
    expect(configured.location!.searchParams.get('error')).toBe('access_denied');
  });

  test('bad client or redirect URI: HTML 400, no redirect', async () => {
    const badRedirect = await authorize({ redirect_uri: 'http://localhost:5173/callback' });
    expect(badRedirect.res.status).toBe(400);
    expect(badRedirect.location).toBeNull();
    expect(badRedirect.body).toContain('INVALID_CLIENT: Invalid redirect URI');
    const badClient = await authorize({ client_id: 'nope' });
    expect(badClient.body).toContain('INVALID_CLIENT: Invalid client');
  });

  test('unknown scope and bad response_type are redirected errors', async () => {
    expect(
      (await authorize({ scope: 'user-read-everything' })).location!.searchParams.get('error'),
    ).toBe('invalid_scope');
    expect((await authorize({ response_type: 'token' })).location!.searchParams.get('error')).toBe(
      'unsupported_response_type',
    );
  });
});

describe('token endpoint: authorization code', () => {
  test('Basic auth exchange returns exactly the documented fields and a working token', async () => {
    const code = await codeFor();
    const res = await h.tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      basic(),
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    expect(res.json).toMatchObject({
      token_type: 'Bearer',
      scope: 'user-read-private playlist-read-private',
      expires_in: 600,
    });
    const me = await h.call('GET', '/me', { token: res.json.access_token });
    expect(me.json.id).toBe('pipit-tester');
  });

  test('client credentials in the form body work too', async () => {
    const code = await codeFor();
    const res = await h.tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: h.emu.clientId,
      client_secret: h.emu.clientSecret!,
    });
    expect(res.status).toBe(200);
  });

  test('codes are single-use and bound to redirect_uri; wrong secret is invalid_client', async () => {
    const code = await codeFor();
    const mismatch = await h.tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:5173/other' },
      basic(),
    );
    expect(mismatch.json).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid redirect URI',
    });
    expect(
      (
        await h.tokenRequest(
          { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
          basic(),
        )
      ).status,
    ).toBe(200);
    const reuse = await h.tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      basic(),
    );
    expect(reuse.status).toBe(400);
    expect(reuse.json).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid authorization code',
    });
    const wrong = await h.tokenRequest(
      { grant_type: 'authorization_code', code: await codeFor(), redirect_uri: REDIRECT },
      { id: h.emu.clientId, secret: 'x' },
    );
    expect(wrong.json).toEqual({
      error: 'invalid_client',
      error_description: 'Invalid client secret',
    });
  });

  test('codes expire after 10 minutes of virtual time', async () => {
    const code = await codeFor();
    h.emu.control.advanceClock(10 * 60_000 + 1);
    const res = await h.tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      basic(),
    );
    expect(res.json).toEqual({
      error: 'invalid_grant',
      error_description: 'Authorization code expired',
    });
  });

  test('PKCE (S256) with a public client; a wrong verifier is rejected', async () => {
    const app = h.emu.control.registerApp({ clientSecret: null, redirectUris: [REDIRECT] });
    const verifier = 'v'.repeat(20) + '-._~abcdefghijklmnopqrstuvwxyz';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const pkce = {
      client_id: app.clientId,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const wrongCode = await codeFor(pkce);
    const wrong = await h.tokenRequest({
      grant_type: 'authorization_code',
      code: wrongCode,
      redirect_uri: REDIRECT,
      client_id: app.clientId,
      code_verifier: `${verifier}x`,
    });
    expect(wrong.json).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier was incorrect',
    });
    const code = await codeFor(pkce);
    const res = await h.tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: app.clientId,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    expect(res.json.refresh_token).toBeTruthy();
    const noChallenge = await authorize({ client_id: app.clientId });
    expect(noChallenge.location!.searchParams.get('error')).toBe('invalid_request');
  });

  test('grant_type errors', async () => {
    expect((await h.tokenRequest({}, basic())).json).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'grant_type parameter is missing',
    });
    expect((await h.tokenRequest({ grant_type: 'password' }, basic())).json).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'grant_type password is not supported',
    });
  });
});

describe('access and refresh tokens', () => {
  test('access tokens expire after the TTL; a refresh gives a new one and keeps the refresh token', async () => {
    const code = await codeFor();
    const first = (
      await h.tokenRequest(
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
        basic(),
      )
    ).json;
    h.emu.control.advanceClock(600_000);
    const expired = await h.call('GET', '/me', { token: first.access_token });
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual({ error: { status: 401, message: 'The access token expired' } });
    const refreshed = await h.tokenRequest(
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      basic(),
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).toBeUndefined();
    expect((await h.call('GET', '/me', { token: refreshed.json.access_token })).status).toBe(200);
    // Without rotation the same refresh token keeps working.
    expect(
      (
        await h.tokenRequest(
          { grant_type: 'refresh_token', refresh_token: first.refresh_token },
          basic(),
        )
      ).status,
    ).toBe(200);
  });

  test('rotation: a new refresh token each time, the old one is revoked', async () => {
    h.emu.control.configure({ refreshRotation: 'always' });
    const { refreshToken } = h.emu.control.mintToken({ scopes: ALL, withRefresh: true });
    const one = await h.tokenRequest(
      { grant_type: 'refresh_token', refresh_token: refreshToken! },
      basic(),
    );
    h.emu.control.configure({ refreshRotation: 'none' });
    expect(one.json.refresh_token).toBeTruthy();
    expect(one.json.refresh_token).not.toBe(refreshToken);
    const reuse = await h.tokenRequest(
      { grant_type: 'refresh_token', refresh_token: refreshToken! },
      basic(),
    );
    expect(reuse.json).toEqual({
      error: 'invalid_grant',
      error_description: 'Refresh token revoked',
    });
  });

  test('refresh tokens die 6 months after authorization; confidential refresh needs the secret', async () => {
    const { refreshToken } = h.emu.control.mintToken({ scopes: ALL, withRefresh: true });
    const noSecret = await h.tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: refreshToken!,
      client_id: h.emu.clientId,
    });
    expect(noSecret.json.error).toBe('invalid_client');
    h.emu.control.advanceClock(183 * 86_400_000);
    const dead = await h.tokenRequest(
      { grant_type: 'refresh_token', refresh_token: refreshToken! },
      basic(),
    );
    expect(dead.status).toBe(400);
    expect(dead.json.error).toBe('invalid_grant');
  });

  test('client credentials: no refresh token, no user context', async () => {
    const res = await h.tokenRequest({ grant_type: 'client_credentials' }, basic());
    expect(Object.keys(res.json).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect((await h.call('GET', '/me', { token: res.json.access_token })).status).toBe(401);
    expect(
      (
        await h.call('GET', '/search', {
          token: res.json.access_token,
          query: { q: 'doxy', type: 'track' },
        })
      ).status,
    ).toBe(200);
  });

  test('missing, unknown and revoked tokens', async () => {
    expect((await h.call('GET', '/me', { token: null })).json.error.message).toBe(
      'No token provided',
    );
    expect((await h.call('GET', '/me', { token: 'garbage' })).json.error.message).toBe(
      'Invalid access token',
    );
    const t = h.tokenFor(ALL);
    h.emu.control.revokeToken(t);
    expect((await h.call('GET', '/me', { token: t })).json).toEqual({
      error: { status: 401, message: 'Invalid access token' },
    });
  });
});
