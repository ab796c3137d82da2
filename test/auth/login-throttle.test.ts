import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/auth/login-throttle.ts';

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

  it('exempts from the user ceiling at most the 64 addresses that logged in last', () => {
    const logins = new LoginThrottle(1);
    for (let i = 0; i <= 64; i++) logins.succeeded('ada', `10.0.1.${i}`);
    // The ceiling (10x the attempts) is reached from ten other addresses.
    for (let i = 0; i < 10; i++) logins.failed('ada', `10.0.2.${i}`);
    expect(logins.wait('ada', '10.0.3.1')).toBeGreaterThan(0);
    expect(logins.wait('ada', '10.0.1.64')).toBe(0);
    expect(logins.wait('ada', '10.0.1.1')).toBe(0);
    // The first address was forgotten when the 65th logged in.
    expect(logins.wait('ada', '10.0.1.0')).toBeGreaterThan(0);
  });
});
