import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/auth/login-throttle.ts';

const MINUTE = 60_000;

describe('LoginThrottle', () => {
  it('counts a pair, an address and a user name apart, and resets only the pair on success', () => {
    const logins = new LoginThrottle(2);
    logins.failed('ada', '10.0.0.9');
    expect(logins.wait('ada', '10.0.0.9')).toBe(0);
    logins.failed('ada', '10.0.0.9');
    // Two failures of the pair: that pair waits, the owner's address does not.
    expect(logins.wait('ada', '10.0.0.9')).toBeGreaterThan(0);
    expect(logins.wait('ada', '10.0.0.1')).toBe(0);
    logins.succeeded('ada', '10.0.0.9');
    expect(logins.wait('ada', '10.0.0.9')).toBe(0);
  });

  it('over the per-user ceiling, a new address still gets in: 100 failures from 4+ addresses', () => {
    let now = 1_800_000_000_000;
    const logins = new LoginThrottle(10, () => now);
    // 100 failures (the ceiling at login_attempts 10) from 25 addresses, 4 each, a few a second.
    for (let i = 0; i < 25; i++) {
      for (let j = 0; j < 4; j++) {
        now += 300;
        logins.failed('ada', `198.51.100.${i}`);
      }
    }
    // The owner, from an address never seen: may try at once (the old ceiling said 15 minutes).
    expect(logins.wait('ada', '192.0.2.77')).toBe(0);
    // One mistyped password there still leaves a try.
    logins.failed('ada', '192.0.2.77');
    expect(logins.wait('ada', '192.0.2.77')).toBe(0);
    // An address the attacker used is slowed down: 4 failures are under login_attempts (10), but
    // over the 2 an address gets for a name past its ceiling.
    expect(logins.wait('ada', '198.51.100.3')).toBeGreaterThan(0);
    expect(logins.wait('ada', '198.51.100.3')).toBeLessThanOrEqual(15 * 60);
    // Another user name is not affected at all.
    expect(logins.wait('bob', '198.51.100.3')).toBe(0);
    // The window passes: the attacker's addresses get their full quota again.
    now += 15 * MINUTE;
    expect(logins.wait('ada', '198.51.100.3')).toBe(0);
  });

  it('a spread-out attack gets fewer guesses past the ceiling than below it', () => {
    let now = 1_800_000_000_000;
    const logins = new LoginThrottle(10, () => now);
    const guesses = (from: string) => {
      let n = 0;
      while (logins.wait('ada', from) === 0 && n < 100) {
        logins.failed('ada', from);
        now += 10;
        n++;
      }
      return n;
    };
    const before = Array.from({ length: 10 }, (_, i) => guesses(`203.0.113.${i}`));
    expect(before).toEqual(Array(10).fill(10));
    const after = Array.from({ length: 10 }, (_, i) => guesses(`203.0.114.${i}`));
    expect(after).toEqual(Array(10).fill(2));
  });

  it('keeps the full quota past the ceiling for at most the 64 addresses that logged in last', () => {
    const logins = new LoginThrottle(3);
    for (let i = 0; i <= 64; i++) logins.succeeded('ada', `10.0.1.${i}`);
    // The ceiling (10x the attempts: 30) is reached from ten other addresses.
    for (let i = 0; i < 10; i++) for (let j = 0; j < 3; j++) logins.failed('ada', `10.0.2.${i}`);
    const twoFailures = (from: string) => {
      logins.failed('ada', from);
      logins.failed('ada', from);
      return logins.wait('ada', from);
    };
    // Two failures: under login_attempts (3), over the 2 an address has past the ceiling.
    expect(twoFailures('10.0.3.1')).toBeGreaterThan(0);
    expect(twoFailures('10.0.1.64')).toBe(0);
    expect(twoFailures('10.0.1.1')).toBe(0);
    // The first address was forgotten when the 65th logged in.
    expect(twoFailures('10.0.1.0')).toBeGreaterThan(0);
  });
});
