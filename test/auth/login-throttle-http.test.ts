// Failed logins are throttled per (user name, address) and per address, so an
// attacker's address is stopped while the owner, elsewhere, still logs in.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const PASSWORD = 'correct horse battery';
let t: TestApp;
beforeEach(async () => {
  t = await makeApp('', { http: { login_attempts: 3 } });
  await registerAndToken(t.app);
});
afterEach(() => t.close());

const login = (password: string, from: string, username = 'ada') =>
  t.app.inject({
    method: 'POST',
    url: '/auth',
    remoteAddress: from,
    payload: { username, password },
  });

describe('login throttling', () => {
  it('locks out the attacking address, not the owner at another address', async () => {
    for (let i = 0; i < 3; i++)
      expect((await login(`guess ${i}`, '203.0.113.9')).statusCode).toBe(401);
    const attacker = await login(PASSWORD, '203.0.113.9');
    expect(attacker.statusCode).toBe(429);
    expect(Number(attacker.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(PASSWORD, '192.0.2.10')).statusCode).toBe(200);
  });

  it('throttles one address guessing across many user names', async () => {
    for (let i = 0; i < 9; i++)
      expect((await login('nope nope', '203.0.113.7', `user${i}`)).statusCode).toBe(401);
    expect((await login(PASSWORD, '203.0.113.7')).statusCode).toBe(429);
    expect((await login(PASSWORD, '192.0.2.10')).statusCode).toBe(200);
  });

  it('a spread-out attack past the per-user ceiling slows its addresses down, not the owner', async () => {
    expect((await login(PASSWORD, '192.0.2.10')).statusCode).toBe(200);
    // 10 x login_attempts failures, 2 from each of 15 addresses (under the per-pair limit).
    for (let i = 0; i < 15; i++) {
      for (let j = 0; j < 2; j++)
        expect((await login(`guess ${i}-${j}`, `198.51.100.${i}`)).statusCode).toBe(401);
    }
    // An attacking address gets no third guess (its pair limit is 3), even with the password...
    expect((await login(PASSWORD, '198.51.100.4')).statusCode).toBe(429);
    // ...while the owner gets in at once from an address never seen, and from a known one.
    expect((await login(PASSWORD, '198.51.100.200')).statusCode).toBe(200);
    expect((await login(PASSWORD, '192.0.2.10')).statusCode).toBe(200);
  });
});
