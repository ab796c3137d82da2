import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureLog, makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';
import { bearer, closeAll, connect, listen, subscribers, wsOnlyApp } from './ws-client.ts';
import type { Client } from './ws-client.ts';

/** Asserts the refusal protocol: one error frame in the endpoint's shape, then close 1008. */
async function expectRefused(c: Client, message: RegExp): Promise<string> {
  const frame = await c.next();
  const errors: string[] = frame.type === 'error' ? frame.errors : frame.response.errors;
  expect(errors.join('\n')).toMatch(message);
  const { code, reason } = await c.closed;
  expect(code).toBe(1008);
  expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
  return reason;
}

describe('WebSocket authentication and connection lifecycle', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  let cookie: string;

  beforeAll(async () => {
    t = await makeApp();
    token = await registerAndToken(t.app);
    base = await listen(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: { username: 'ada', password: 'correct horse battery' },
    });
    cookie = String(login.headers['set-cookie']).split(';')[0]!;
  });
  afterEach(closeAll);
  afterAll(() => t.close());

  it('refuses a connection without credentials on both endpoints: error frame, then 1008', async () => {
    const events = await connect(`${base}/ws/events`);
    expect(await expectRefused(events, /authentication required/)).toMatch(/^authentication/);
    const requests = await connect(`${base}/ws/requests`);
    const frame = await requests.next();
    expect(frame).toMatchObject({ type: 'response', target: 'ws' });
    expect(frame.response.errors[0]).toMatch(/authentication required/);
    expect((await requests.closed).code).toBe(1008);
  });

  it('refuses a bad token and a malformed Authorization header', async () => {
    await expectRefused(await connect(`${base}/ws/events`, bearer('not.a.jwt')), /token/i);
    const basic = await connect(`${base}/ws/requests`, {
      headers: { authorization: 'Basic YWRhOnB3' }, // ada:pw, the wrong password
    });
    await expectRefused(basic, /wrong user name or password/);
    const digest = await connect(`${base}/ws/requests`, {
      headers: { authorization: 'Digest username="ada"' },
    });
    await expectRefused(digest, /must be "Bearer <token>" or "Basic/);
  });

  it('refuses every connection while no user exists (NO_USER)', async () => {
    const fresh = await makeApp();
    try {
      const c = await connect(`${await listen(fresh.app)}/ws/events`, bearer(token));
      await expectRefused(c, /no user exists yet/);
    } finally {
      await fresh.close();
    }
  });

  it('accepts the token as Bearer, X-Token or a query parameter', async () => {
    const clients = await Promise.all([
      connect(`${base}/ws/requests`, bearer(token)),
      connect(`${base}/ws/requests`, { headers: { 'x-token': token } }),
      connect(`${base}/ws/requests?token=${encodeURIComponent(token)}`),
    ]);
    for (const [i, c] of clients.entries()) {
      c.send({ type: 'requests', action: 'utils.echo', args: { i }, id: `a${i}` });
      expect((await c.next()).response).toEqual({ output: { i }, errors: [] });
    }
  });

  it('accepts the session cookie from the same origin (or no Origin), refuses another site', async () => {
    const origin = base.replace(/^ws/, 'http');
    const same = await connect(`${base}/ws/events`, { headers: { cookie }, origin });
    const noOrigin = await connect(`${base}/ws/events`, { headers: { cookie } });
    await t.service.events.emit('CustomEvent', { subtype: 'cookie' });
    for (const c of [same, noOrigin]) expect((await c.next()).args.subtype).toBe('cookie');

    const evil = await connect(`${base}/ws/events`, {
      headers: { cookie },
      origin: 'https://evil.example',
    });
    await expectRefused(evil, /cross-site WebSocket refused/);
    const stale = await connect(`${base}/ws/events`, { headers: { cookie: 'pipit_session=nope' } });
    await expectRefused(stale, /session has expired/);
  });

  it('closes the sockets of a revoked token at once with 1008, and only those', async () => {
    const other = await t.service.auth.issueToken({ id: 1, username: 'ada' }, { name: 'other' });
    const doomed = await Promise.all([
      connect(`${base}/ws/events`, bearer(other.token)),
      connect(`${base}/ws/requests?token=${other.token}`),
    ]);
    const kept = await connect(`${base}/ws/events`, bearer(token));
    t.service.auth.revokeToken(1, other.id);
    for (const c of doomed) expect(await expectRefused(c, /revoked/)).toMatch(/revoked/);
    await t.service.events.emit('CustomEvent', { subtype: 'after-revoke' });
    expect((await kept.next()).args.subtype).toBe('after-revoke');
    await expectRefused(await connect(`${base}/ws/events`, bearer(other.token)), /revoked/);
  });

  it('never writes a query-parameter token to the log', async () => {
    const { log, lines } = captureLog('debug');
    const logged = await makeApp('', { log });
    try {
      const secret = await registerAndToken(logged.app);
      const url = await listen(logged.app);
      const c = await connect(`${url}/ws/events?token=${secret}`);
      c.send('{bad');
      await c.next();
      c.ws.close();
      await c.closed;
      await expectRefused(await connect(`${url}/ws/requests?token=${secret}x`), /token/i);
      const text = JSON.stringify(lines);
      expect(text).toContain('/ws/events?token=[redacted]');
      expect(text).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });

  it('answers a plain GET (no upgrade) with a 400 response message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ws/events' });
    expect(res.statusCode).toBe(400);
    expect(res.json().response.errors[0]).toMatch(/WebSocket endpoint/);
  });
});

describe('WebSocket keep-alive, re-checks and shutdown', () => {
  let t: TestApp;
  let token: string;

  let baseline: number;

  beforeAll(async () => {
    t = await makeApp();
    token = await registerAndToken(t.app);
    baseline = subscribers(t.service);
  });
  afterEach(async () => {
    await closeAll();
    await expect.poll(() => subscribers(t.service)).toBe(baseline);
  });
  afterAll(() => t.close());

  it('terminates a socket whose handler throws, and logs why with a redacted URL', async () => {
    const { log, lines } = captureLog('warn');
    const events = Object.create(t.service.events) as typeof t.service.events;
    events.subscribe = () => {
      throw new Error('the bus is down');
    };
    const broken = await wsOnlyApp({ ...t.service, log, events }, {});
    try {
      const c = await connect(`${broken.base}/ws/events?token=${token}`);
      expect((await c.closed).code).toBe(1006); // terminated, no close frame
      const line = lines.find((l) => l.msg === 'WebSocket handler failed');
      expect(line).toMatchObject({ url: '/ws/events?token=[redacted]' });
      expect(JSON.stringify(line)).toContain('the bus is down');
      expect(JSON.stringify(lines)).not.toContain(token);
    } finally {
      await broken.app.close();
    }
  });

  it('pings every interval, keeps a client that answers, terminates one that does not', async () => {
    const fast = await wsOnlyApp(t.service, { pingIntervalMs: 40 });
    try {
      const answering = await connect(`${fast.base}/ws/events`, bearer(token));
      const silent = await connect(`${fast.base}/ws/events`, { ...bearer(token), autoPong: false });
      let pings = 0;
      const threePings = new Promise<void>((resolve) =>
        answering.ws.on('ping', () => ++pings === 3 && resolve()),
      );
      const { code } = await silent.closed;
      expect(code).toBe(1006); // terminated: no close frame
      await threePings;
      expect(answering.ws.readyState).toBe(answering.ws.OPEN);
      expect(fast.connections.size).toBe(1);
    } finally {
      await closeAll();
      await fast.app.close();
    }
  });

  it('closes a cookie socket with 1008 on the next beat after its session ends', async () => {
    const fast = await wsOnlyApp(t.service, { pingIntervalMs: 40 });
    try {
      const login = await t.app.inject({
        method: 'POST',
        url: '/login',
        payload: { username: 'ada', password: 'correct horse battery' },
      });
      const cookie = String(login.headers['set-cookie']).split(';')[0]!;
      const c = await connect(`${fast.base}/ws/events`, { headers: { cookie } });
      const logout = await t.app.inject({
        method: 'POST',
        url: '/logout',
        headers: { cookie, 'x-csrf-token': login.json().csrf_token },
      });
      expect(logout.statusCode).toBe(200);
      await expectRefused(c, /session has ended/);
    } finally {
      await closeAll();
      await fast.app.close();
    }
  });

  it('closes every socket with 1001 on shutdown and leaves no subscription behind', async () => {
    const before = baseline;
    const extra = await wsOnlyApp(t.service, {});
    const clients = await Promise.all([
      connect(`${extra.base}/ws/events`, bearer(token)),
      connect(`${extra.base}/ws/requests`, bearer(token)),
    ]);
    expect(subscribers(t.service)).toBe(before + 1);
    await extra.app.close();
    for (const c of clients) expect((await c.closed).code).toBe(1001);
    await expect.poll(() => extra.connections.size).toBe(0);
    expect(extra.connections.tokens).toBe(0);
    expect(subscribers(t.service)).toBe(before);
  });
});
