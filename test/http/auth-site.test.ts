// POST /register and /login refuse cross-site browsers (forms on other sites: claiming a fresh
// instance, login CSRF), and registration refuses a Host that DNS rebinding could put there.
import { afterEach, describe, expect, it } from 'vitest';
import { hostAllowed } from '../../src/http/routes/auth-site.ts';
import { makeApp } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const PASSWORD = 'correct horse battery';
const FORM = 'application/x-www-form-urlencoded';
const form = new URLSearchParams({ username: 'ada', password: PASSWORD }).toString();

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function app(http: Record<string, unknown> = {}): Promise<TestApp> {
  t = await makeApp('', { http });
  return t;
}

const post = (
  a: TestApp,
  url: string,
  headers: Record<string, string>,
  payload: string | object = form,
) =>
  a.app.inject({
    method: 'POST',
    url,
    headers: { ...(typeof payload === 'string' ? { 'content-type': FORM } : {}), ...headers },
    payload,
  });

async function registrationOpen(a: TestApp): Promise<boolean> {
  const res = await a.app.inject({ method: 'GET', url: '/auth/status' });
  return res.json<{ registration_open: boolean }>().registration_open;
}

async function registered(a: TestApp): Promise<void> {
  expect((await post(a, '/register', {}, { username: 'ada', password: PASSWORD })).statusCode).toBe(
    201,
  );
}

describe('cross-site forms on /register and /login', () => {
  it('refuses a form another site posts to /register: no user is created', async () => {
    const a = await app();
    const res = await post(a, '/register', {
      host: 'localhost:8008',
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().response.errors[0]).toMatch(
      /cross-site registration refused: .*Origin "https:\/\/evil.example".*"localhost:8008"/,
    );
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await registrationOpen(a)).toBe(true);
  });

  it.each([
    [{ origin: 'null' }, /Origin "null"/],
    [{ origin: 'http://localhost:9999' }, /Origin/], // another port is another origin
    [{ origin: 'http://localhost:8008.evil.example' }, /Origin/],
    [{ 'sec-fetch-site': 'cross-site' }, /Sec-Fetch-Site: "cross-site"/],
    [{ 'sec-fetch-site': 'same-site' }, /Sec-Fetch-Site: "same-site"/],
    [{ origin: 'http://localhost:8008', 'sec-fetch-site': 'cross-site' }, /Sec-Fetch-Site/],
  ])('refuses %j on /register and /login', async (headers, message) => {
    const a = await app();
    for (const url of ['/register', '/login']) {
      const res = await post(a, url, { host: 'localhost:8008', ...headers });
      expect(res.statusCode).toBe(403);
      expect(res.json().response.errors[0]).toMatch(message);
    }
    expect(await registrationOpen(a)).toBe(true);
  });

  it('refuses login CSRF: another site cannot log the visitor into its own account', async () => {
    const a = await app();
    await registered(a);
    const res = await post(a, '/login?redirect=/execute', {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().response.errors[0]).toMatch(/cross-site login refused/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it.each([
    ['the same origin', { origin: 'http://localhost:8008', 'sec-fetch-site': 'same-origin' }],
    ['the same origin, default port', { origin: 'http://localhost', host: 'localhost' }],
    ['an address typed in', { 'sec-fetch-site': 'none' }],
    ['no browser headers (curl, the CLI, Python clients)', {}],
  ])('takes a form from %s', async (_what, headers) => {
    const a = await app();
    const reg = await post(a, '/register', { host: 'localhost:8008', ...headers });
    expect(reg.statusCode).toBe(302);
    expect(reg.headers['set-cookie']).toMatch(/^session_token=/);
    const login = await post(a, '/login', { host: 'localhost:8008', ...headers });
    expect(login.statusCode).toBe(302);
  });

  it('takes a JSON login from an origin listed in cors_origins', async () => {
    const a = await app({ cors_origins: ['https://dash.example'] });
    await registered(a);
    const res = await post(
      a,
      '/login',
      { origin: 'https://dash.example', 'sec-fetch-site': 'cross-site' },
      { username: 'ada', password: PASSWORD },
    );
    expect(res.statusCode).toBe(200);
  });

  it('compares the Origin with X-Forwarded-Host only under trust_proxy', async () => {
    const headers = {
      host: '127.0.0.1:8008',
      'x-forwarded-host': 'pipit.example.com',
      'x-forwarded-proto': 'https',
      origin: 'https://pipit.example.com',
      'sec-fetch-site': 'same-origin',
    };
    const direct = await app();
    await registered(direct);
    expect((await post(direct, '/login', headers)).statusCode).toBe(403);
    await direct.close();
    const proxied = await app({ trust_proxy: true });
    await registered(proxied);
    expect((await post(proxied, '/login', headers)).statusCode).toBe(302);
  });
});

describe('the Host of a registration (DNS rebinding)', () => {
  it('refuses a name that is not an IP, localhost or allowed: the rebinding page cannot register', async () => {
    const a = await app();
    // A rebound page is same-origin as far as the browser knows: only the Host gives it away.
    const res = await post(a, '/register', {
      host: 'evil.example:8008',
      origin: 'http://evil.example:8008',
      'sec-fetch-site': 'same-origin',
    });
    expect(res.statusCode).toBe(403);
    const message: string = res.json().response.errors[0];
    expect(message).toMatch(/reached as "evil.example:8008"/);
    expect(message).toMatch(/add "evil.example" to backend.http.allowed_hosts/);
    expect(message).toMatch(/pipit user add/);
    expect(await registrationOpen(a)).toBe(true);
  });

  it('refuses it for JSON and without browser headers too', async () => {
    const a = await app();
    const res = await post(
      a,
      '/register',
      { host: 'pi.lan' },
      { username: 'ada', password: PASSWORD },
    );
    expect(res.statusCode).toBe(403);
    expect(await registrationOpen(a)).toBe(true);
  });

  it('registers through a name listed in backend.http.allowed_hosts (any case, any port)', async () => {
    const a = await app({ allowed_hosts: ['pipit.example.com'] });
    const res = await post(a, '/register', {
      host: 'Pipit.Example.COM:8443',
      origin: 'https://pipit.example.com:8443',
    });
    expect(res.statusCode).toBe(302);
  });

  it('leaves login through any name alone once a user exists', async () => {
    const a = await app();
    await registered(a);
    const login = await post(a, '/login', { host: 'pi.lan:8008', origin: 'http://pi.lan:8008' });
    expect(login.statusCode).toBe(302);
    // Registration is closed, and says so rather than blaming the host.
    const reg = await post(a, '/register', { host: 'pi.lan:8008' });
    expect(reg.statusCode).toBe(403);
    expect(reg.json().response.errors[0]).toMatch(/registration is closed/);
  });

  it.each([
    ['127.0.0.1:8008', true],
    ['192.168.1.20', true],
    ['[::1]:8008', true],
    ['[fe80::1]', true],
    ['localhost:8008', true],
    ['LOCALHOST.', true],
    ['pipit.localhost:8008', true],
    [undefined, true], // HTTP/1.0 without Host: not a browser
    ['localhost.evil.example', false],
    ['127.0.0.1.nip.io:8008', false],
    ['evil.example', false],
  ])('hostAllowed(%j) is %s', (host, allowed) => {
    expect(hostAllowed(host, [])).toBe(allowed);
  });

  it('refuses an allowed_hosts entry that is not a host name', async () => {
    for (const entry of ['https://pipit.example.com', 'pipit.example.com:8008', 'a/b']) {
      await expect(makeApp('', { http: { allowed_hosts: [entry] } })).rejects.toThrow(
        /allowed_hosts.*host name such as pipit.example.com/s,
      );
    }
  });
});
