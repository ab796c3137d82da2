// A guessing attack spread over many addresses must not lock the owner out: past the per-user
// ceiling the attacking addresses are slowed down, and the right password from a new address works.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const PASSWORD = 'correct horse battery';
let t: TestApp;
beforeEach(async () => {
  t = await makeApp(); // login_attempts: 10, so the per-user ceiling is 100 failures
  await registerAndToken(t.app);
});
afterEach(() => t.close());

const login = (url: string, password: string, from: string) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: from,
    payload: { username: 'ada', password },
  });

describe('the owner after a distributed guessing attack', () => {
  it('logs in from a new address at once after 100 failures from 10 addresses', async () => {
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++)
        expect((await login('/auth', `guess ${i}-${j}`, `198.51.100.${i}`)).statusCode).toBe(401);
    }
    const started = Date.now();
    const owner = await login('/login', PASSWORD, '192.0.2.44');
    expect(owner.statusCode).toBe(200);
    expect(owner.headers['set-cookie']).toMatch(/^session_token=/);
    expect(Date.now() - started).toBeLessThan(60_000);
    // The attack goes on from new addresses: each gets 2 guesses at "ada", not 10.
    for (const from of ['203.0.113.1', '203.0.113.2']) {
      expect((await login('/auth', 'guess again', from)).statusCode).toBe(401);
      expect((await login('/auth', 'and again!', from)).statusCode).toBe(401);
      const third = await login('/auth', 'third one', from);
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    }
    // And the owner still gets in from yet another new address, with a token this time.
    expect((await login('/auth', PASSWORD, '192.0.2.45')).statusCode).toBe(200);
  });
});
