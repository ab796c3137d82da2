import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JwtCodec, loadOrCreateSecret } from '../../src/auth/jwt.ts';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const PASSWORD = 'correct horse battery';
const cookieOf = (res: { headers: Record<string, unknown> }) => {
  const raw = res.headers['set-cookie'];
  const first = Array.isArray(raw) ? raw[0] : raw;
  return String(first).split(';')[0]!;
};

describe('authentication', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeApp();
  });
  afterEach(() => t.close());

  const execute = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/execute',
      headers,
      payload: { type: 'request', action: 'utils.echo', args: { x: 1 } },
    });

  it('answers 412 on protected routes while no user exists, and says how to register', async () => {
    const res = await execute({});
    expect(res.statusCode).toBe(412);
    expect(res.json().response.errors[0]).toMatch(/register/);
    const status = await t.app.inject({ method: 'GET', url: '/auth/status' });
    expect(status.json()).toEqual({ registration_open: true, user: null, csrf_token: null });
  });

  it('registers the first user only, then closes registration with 403', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/register',
      payload: { username: 'ada', password: PASSWORD },
    });
    expect(first.statusCode).toBe(201);
    const cookie = cookieOf(first);
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly/i);
    expect(String(first.headers['set-cookie'])).toMatch(/SameSite=Strict/i);
    const second = await t.app.inject({
      method: 'POST',
      url: '/register',
      payload: { username: 'eve', password: PASSWORD },
    });
    expect(second.statusCode).toBe(403);
    expect(t.service.store.users.list().map((u) => u.username)).toEqual(['ada']);
    const status = await t.app.inject({ method: 'GET', url: '/auth/status', headers: { cookie } });
    expect(status.json()).toMatchObject({ registration_open: false, user: { username: 'ada' } });
  });

  it('refuses weak passwords and mismatched confirmations without creating a user', async () => {
    const short = await t.app.inject({
      method: 'POST',
      url: '/register',
      payload: { username: 'ada', password: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().response.errors[0]).toMatch(/8 to 1024 characters/);
    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/register',
      payload: { username: 'ada', password: PASSWORD, confirm_password: 'other thing' },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(t.service.store.users.count()).toBe(0);
  });

  it('stores an argon2id hash, never the password', async () => {
    await registerAndToken(t.app);
    const row = t.service.store.users.byName('ada')!;
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
  });

  it('lets a session cookie call /execute only with the CSRF token', async () => {
    await registerAndToken(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: { username: 'ada', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const cookie = cookieOf(login);
    const csrf = login.json().csrf_token as string;
    const without = await execute({ cookie });
    expect(without.statusCode).toBe(403);
    expect(without.json().response.errors[0]).toMatch(/X-CSRF-Token/);
    const withCsrf = await execute({ cookie, 'x-csrf-token': csrf });
    expect(withCsrf.statusCode).toBe(200);
    expect(withCsrf.json().response.output).toEqual({ x: 1 });

    const logout = await t.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(logout.statusCode).toBe(200);
    const after = await execute({ cookie, 'x-csrf-token': csrf });
    expect(after.statusCode).toBe(401);
    expect(after.json().response.errors[0]).toMatch(/session has expired or ended/);
  });

  it('answers 401 with a JSON error for a wrong password on /auth and /login', async () => {
    await registerAndToken(t.app);
    for (const url of ['/auth', '/login']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: { username: 'ada', password: 'wrong password' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().response.errors).toEqual(['wrong user name or password']);
    }
  });

  it('throttles failed logins per user name with 429 and Retry-After, even for the right password', async () => {
    await registerAndToken(t.app);
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth',
        payload: { username: 'ada', password: `wrong ${i}` },
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { username: 'ada', password: PASSWORD },
    });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().response.errors[0]).toMatch(/try again in \d+ seconds/);
  });

  it('lists tokens with names and revokes one: 401 at once, others keep working', async () => {
    const token = await registerAndToken(t.app);
    const auth = { authorization: `Bearer ${token}` };
    const created = await t.app.inject({
      method: 'POST',
      url: '/tokens',
      headers: auth,
      payload: { password: PASSWORD, name: 'kitchen tablet', expiry_days: 7 },
    });
    expect(created.statusCode).toBe(201);
    const second = created.json<{ token: string; id: string; expires_at: number }>();
    expect(second.expires_at - Date.now() / 1000).toBeGreaterThan(6.9 * 86400);
    expect((await execute({ authorization: `Bearer ${second.token}` })).statusCode).toBe(200);

    const list = await t.app.inject({ method: 'GET', url: '/tokens', headers: auth });
    const names = (list.json().tokens as { name: string; last_used_at: number | null }[]).map(
      (x) => x.name,
    );
    expect(names).toContain('kitchen tablet');
    expect(JSON.stringify(list.json())).not.toContain(second.token);

    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/tokens/${second.id}`,
      headers: auth,
    });
    expect(revoke.statusCode).toBe(200);
    const afterRevoke = await execute({ authorization: `Bearer ${second.token}` });
    expect(afterRevoke.statusCode).toBe(401);
    expect(afterRevoke.json().response.errors[0]).toMatch(/revoked/);
    expect((await execute(auth)).statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/tokens/${second.id}`,
      headers: auth,
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses token creation with a wrong re-entered password (403) and keeps the list unchanged', async () => {
    const token = await registerAndToken(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/tokens',
      headers: { authorization: `Bearer ${token}` },
      payload: { password: 'not my password', name: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(t.service.auth.listTokens(1)).toHaveLength(1);
  });

  it('answers 401 for an expired token', async () => {
    await registerAndToken(t.app);
    const jwt = new JwtCodec(loadOrCreateSecret(join(t.dir, 'data')));
    t.service.store.tokens.create({
      id: 'old',
      user_id: 1,
      name: 'old',
      expires_at: Date.now() / 1000 - 60,
    });
    const expired = await jwt.sign({
      sub: 'ada',
      uid: 1,
      jti: 'old',
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    const res = await execute({ authorization: `Bearer ${expired}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().response.errors[0]).toMatch(/expired/);
  });

  it('refuses a token signed with another secret', async () => {
    await registerAndToken(t.app);
    const other = await makeApp();
    try {
      const foreign = await registerAndToken(other.app);
      const res = await execute({ authorization: `Bearer ${foreign}` });
      expect(res.statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it("refuses a token that carries a cached token's signature over other claims", async () => {
    const good = await registerAndToken(t.app);
    expect((await execute({ authorization: `Bearer ${good}` })).statusCode).toBe(200); // cached now
    const [header, payload, signature] = good.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { sub: string };
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString(
      'base64url',
    );
    const forged = `${header}.${forgedPayload}.${signature}`;
    const res = await execute({ authorization: `Bearer ${forged}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().response.errors[0]).toMatch(/token/i);
    expect((await execute({ authorization: `Bearer ${good}` })).statusCode).toBe(200);
  });

  it('sends security headers (a compact set on JSON API answers) and no CORS headers by default', async () => {
    const api = await t.app.inject({
      method: 'GET',
      url: '/auth/status',
      headers: { origin: 'https://evil.example' },
    });
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(api.headers['cache-control']).toBe('no-store');
    expect(api.headers['access-control-allow-origin']).toBeUndefined();
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
  });
});

describe('CORS', () => {
  it('answers only the configured origins', async () => {
    const t = await makeApp('', { http: { cors_origins: ['https://dash.example'] } });
    try {
      const allowed = await t.app.inject({
        method: 'OPTIONS',
        url: '/execute',
        headers: { origin: 'https://dash.example', 'access-control-request-method': 'POST' },
      });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://dash.example');
      const other = await t.app.inject({
        method: 'OPTIONS',
        url: '/execute',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
