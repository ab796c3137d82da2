// Open WebSockets end with their credentials: logout, token revocation (through the running
// service or by another process on the same database), user removal, a password change and token
// expiry close them with 1008 at once, not on the next keep-alive beat (30 s by default here).
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/control/commands.ts';
import { Store } from '../../src/store/store.ts';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';
import { bearer, closeAll, connect, listen } from './ws-client.ts';
import type { Client } from './ws-client.ts';

const PASSWORD = 'correct horse battery';

/** The refusal protocol: one error frame naming why, then close 1008. */
async function expectRefused(c: Client, message: RegExp): Promise<void> {
  const frame = await c.next();
  const errors: string[] = frame.type === 'error' ? frame.errors : frame.response.errors;
  expect(errors.join('\n')).toMatch(message);
  expect((await c.closed).code).toBe(1008);
}

/** Asserts a socket still works: an echo over /ws/requests, an event over /ws/events. */
async function expectWorking(t: TestApp, c: Client, endpoint: 'requests' | 'events') {
  if (endpoint === 'requests') {
    c.send({ type: 'request', action: 'utils.echo', args: { still: 'here' }, id: 'w' });
    expect((await c.next((f) => f.id === 'w')).response.output).toEqual({ still: 'here' });
  } else {
    await t.service.events.emit('CustomEvent', { subtype: 'still-here' });
    expect((await c.next((f) => f.args?.subtype === 'still-here')).type).toBe('event');
  }
}

let t: TestApp;
let base: string;
let token: string;

async function login(username = 'ada', password = PASSWORD) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/login',
    payload: { username, password },
  });
  expect(res.statusCode).toBe(200);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  return { cookie, csrf: res.json<{ csrf_token: string }>().csrf_token };
}

const issue = (username: string, expiryDays?: number) =>
  runCommand(t.service, 'token.create', {
    user: username,
    ...(expiryDays === undefined ? {} : { expiry_days: expiryDays }),
  }) as Promise<{ token: string; id: string }>;

beforeAll(async () => {
  t = await makeApp(); // the default keep-alive: 30 s between credential re-checks
  token = await registerAndToken(t.app);
  base = await listen(t.app);
});
afterEach(closeAll);
afterAll(() => t.close());

describe('WebSockets whose credentials end', () => {
  it('logout closes the session sockets at once, on both endpoints; other sessions stay', async () => {
    const ended = await login();
    const kept = await login();
    const doomed = [
      await connect(`${base}/ws/requests`, { headers: { cookie: ended.cookie } }),
      await connect(`${base}/ws/events`, { headers: { cookie: ended.cookie } }),
    ];
    const other = await connect(`${base}/ws/requests`, { headers: { cookie: kept.cookie } });
    await expectWorking(t, doomed[0]!, 'requests');
    const logout = await t.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie: ended.cookie, 'x-csrf-token': ended.csrf },
    });
    expect(logout.statusCode).toBe(200);
    for (const c of doomed) await expectRefused(c, /session has ended/);
    await expectWorking(t, other, 'requests');
  });

  it('"pipit token revoke" through the running service closes the token sockets at once', async () => {
    const doomed = await issue('ada');
    const c = await connect(`${base}/ws/requests`, bearer(doomed.token));
    const kept = await connect(`${base}/ws/requests`, bearer(token));
    await runCommand(t.service, 'token.revoke', { user: 'ada', id: doomed.id });
    await expectRefused(c, /revoked/);
    await expectWorking(t, kept, 'requests');
  });

  it('"pipit token revoke --local" (another process) closes the sockets within a second or two', async () => {
    const doomed = await issue('ada');
    const sockets = [
      await connect(`${base}/ws/events`, bearer(doomed.token)),
      await connect(`${base}/ws/requests`, bearer(doomed.token)),
    ];
    // What --local does: its own connection to the same database file.
    const other = Store.open(join(t.service.config.workdir, 'pipit.db'));
    try {
      expect(other.tokens.revoke(doomed.id)).toBe(true);
    } finally {
      await other.close();
    }
    const started = Date.now();
    for (const c of sockets) await expectRefused(c, /revoked/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('removing a user closes their sockets (token and session), not the others', async () => {
    await runCommand(t.service, 'user.add', { name: 'bob', password: PASSWORD });
    const bobToken = await issue('bob');
    const bobSession = await login('bob');
    const doomed = [
      await connect(`${base}/ws/requests`, bearer(bobToken.token)),
      await connect(`${base}/ws/events`, { headers: { cookie: bobSession.cookie } }),
    ];
    const kept = await connect(`${base}/ws/events`, bearer(token));
    await runCommand(t.service, 'user.remove', { name: 'bob' });
    for (const c of doomed) await expectRefused(c, /user of this connection no longer exists/);
    await expectWorking(t, kept, 'events');
  });

  it("a password change ends the user's session sockets; their token sockets stay", async () => {
    await runCommand(t.service, 'user.add', { name: 'cy', password: PASSWORD });
    const session = await login('cy');
    const cyToken = await issue('cy');
    const cookieSocket = await connect(`${base}/ws/events`, {
      headers: { cookie: session.cookie },
    });
    const tokenSocket = await connect(`${base}/ws/requests`, bearer(cyToken.token));
    await runCommand(t.service, 'user.passwd', { name: 'cy', password: 'a brand new password' });
    await expectRefused(cookieSocket, /session has ended/);
    await expectWorking(t, tokenSocket, 'requests');
  });

  it('a token that expires closes its sockets at its expiry time', async () => {
    const short = await issue('ada', 2 / 86_400); // two seconds
    const { expires_at: expiresAt } = (await runCommand(t.service, 'token.list', {
      user: 'ada',
    }).then((list) =>
      (list as { id: string; expires_at: number }[]).find((x) => x.id === short.id),
    ))!;
    const c = await connect(`${base}/ws/requests`, bearer(short.token));
    await expectWorking(t, c, 'requests');
    await expectRefused(c, /expired/);
    // Closed at the expiry (a second at most after: it is stored to the second), not 30 s later.
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt * 1000);
    expect(Date.now()).toBeLessThan(expiresAt * 1000 + 1500);
  });
});
