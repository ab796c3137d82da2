// Platypush's clients keep working — form registration and login with a redirect and the
// `session_token` cookie, HTTP Basic, X-Token, and JSON bodies sent without a JSON content type —
// exercised the way a Python `requests` client does it, with plain HTTP calls.
import { Agent, request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeAll, connect } from '../http/ws-client.ts';
import { makeApp } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const PASSWORD = 'correct horse battery';
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ECHO = JSON.stringify({ type: 'request', action: 'utils.echo', args: { from: 'python' } });

let t: TestApp;
let base: string;
beforeEach(async () => {
  t = await makeApp('', { http: { login_attempts: 3 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  await closeAll();
  await t.close();
});

// requests.post(url, data={...}) sends a form; redirects are not followed here, to see them.
const form = (path: string, fields: Record<string, string>) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

async function registered(): Promise<void> {
  const res = await form('/register', {
    username: 'ada',
    password: PASSWORD,
    confirm_password: PASSWORD,
  });
  expect(res.status).toBe(302);
}

describe('form registration and login', () => {
  it('registers with a form, sets session_token, and redirects to a same-origin address', async () => {
    const res = await form('/register?redirect=%2Fsettings%3Ftab%3Dtokens', {
      username: 'ada',
      password: PASSWORD,
      confirm_password: PASSWORD,
      remember: 'on',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/settings?tab=tokens');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^session_token=[\w-]+; .*HttpOnly/);
    const status = await fetch(`${base}/auth/status`, {
      headers: { cookie: cookie.split(';')[0]! },
    });
    expect(((await status.json()) as { user: { username: string } }).user.username).toBe('ada');
  });

  it.each([
    ['https://evil.example/', '/'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/execute', '/execute'],
  ])('login with redirect=%s goes to %s (no open redirect)', async (redirect, location) => {
    await registered();
    const res = await form(`/login?redirect=${encodeURIComponent(redirect)}`, {
      username: 'ada',
      password: PASSWORD,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(location);
    expect(res.headers.get('set-cookie')).toMatch(/^session_token=/);
  });

  it('the JSON forms keep working', async () => {
    const res = await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', password: PASSWORD }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ username: 'ada' });
  });

  it('a wrong password on the form is a 401, not a redirect', async () => {
    await registered();
    const res = await form('/login?redirect=/x', { username: 'ada', password: 'wrong one!' });
    expect(res.status).toBe(401);
  });
});

describe('API calls as Platypush clients make them', () => {
  it('requests.post(url, data=json.dumps(...), headers={"X-Token": t}): no content type, parsed as JSON', async () => {
    await registered();
    const { token } = (await (
      await fetch(`${base}/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'ada', password: PASSWORD }),
      })
    ).json()) as { token: string };
    for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded']) {
      const res = await fetch(`${base}/execute`, {
        method: 'POST',
        headers: { 'x-token': token, ...(type ? { 'content-type': type } : {}) },
        body: type ? ECHO : new Blob([ECHO]),
      });
      expect([type, res.status]).toEqual([type, 200]);
      expect(((await res.json()) as { response: { output: unknown } }).response.output).toEqual({
        from: 'python',
      });
    }
    const bad = await fetch(`${base}/execute`, {
      method: 'POST',
      headers: { 'x-token': token, 'content-type': 'text/plain' },
      body: '{"type": "request",',
    });
    expect(bad.status).toBe(400);
  });

  it('HTTP Basic on /execute: verified once per connection, wrong passwords throttled', async () => {
    await registered();
    const check = vi.spyOn(t.service.auth, 'checkCredentials');
    // One kept-alive connection, as a requests.Session keeps.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 5; i++) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${base}/execute`, {
          method: 'POST',
          agent,
          headers: { authorization: basic('ada', PASSWORD), 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(ECHO);
      });
      expect(status).toBe(200);
    }
    agent.destroy();
    // argon2 ran once for the connection, not five times.
    expect(check).toHaveBeenCalledTimes(1);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/execute`, {
        method: 'POST',
        headers: { authorization: basic('ada', `wrong ${i}`), 'content-type': 'application/json' },
        body: ECHO,
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('Basic credentials that are not "user:password" are a 401 that says the form', async () => {
    await registered();
    const res = await fetch(`${base}/execute`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('no-colon').toString('base64')}`,
        'content-type': 'application/json',
      },
      body: ECHO,
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { response: { errors: string[] } };
    expect(body.response.errors[0]).toMatch(/must be "user:password" in base64/);
  });

  it('a browser session must still send application/json (CSRF)', async () => {
    const reg = await form('/register', { username: 'ada', password: PASSWORD });
    const cookie = reg.headers.get('set-cookie')!.split(';')[0]!;
    const status = (await (await fetch(`${base}/auth/status`, { headers: { cookie } })).json()) as {
      csrf_token: string;
    };
    const res = await fetch(`${base}/execute`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': status.csrf_token, 'content-type': 'text/plain' },
      body: ECHO,
    });
    expect(res.status).toBe(415);
  });

  it('HTTP Basic on /ws/requests', async () => {
    await registered();
    const c = await connect(`${base.replace('http', 'ws')}/ws/requests`, {
      headers: { authorization: basic('ada', PASSWORD) },
    });
    c.send({ type: 'request', action: 'utils.echo', args: { via: 'basic' }, id: 'b' });
    expect((await c.next((f) => f.id === 'b')).response.output).toEqual({ via: 'basic' });
  });
});
