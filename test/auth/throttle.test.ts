import { describe, expect, it } from 'vitest';
import { Throttle } from '../../src/auth/throttle.ts';
import { redactUrl } from '../../src/http/log.ts';

describe('Throttle', () => {
  it('blocks after the limit within the window and frees the key as failures age out', () => {
    let now = 0;
    const t = new Throttle(3, 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(t.retryAfter('k')).toBe(0);
      t.fail('k');
      now += 1000;
    }
    expect(t.retryAfter('k')).toBe(57);
    expect(t.retryAfter('other')).toBe(0);
    now = 60_001;
    expect(t.retryAfter('k')).toBe(0);
    t.fail('k');
    t.reset('k');
    expect(t.retryAfter('k')).toBe(0);
  });
});

describe('log redaction', () => {
  it('hides token, code and state values in URLs', () => {
    expect(redactUrl('/ws/events?token=abc.def&x=1')).toBe('/ws/events?token=[redacted]&x=1');
    expect(redactUrl('/spotify/auth_callback?code=c0de&state=s1')).toBe(
      '/spotify/auth_callback?code=[redacted]&state=[redacted]',
    );
  });
});
