import { describe, expect, it } from 'vitest';
import { compileHostAllowList } from '../../../src/plugins/http/hosts.ts';
import { retryAfterSeconds } from '../../../src/plugins/http/retry.ts';

describe('allow_hosts entries', () => {
  const allow = compileHostAllowList([
    'API.example.com',
    '*.lan',
    'svc:8080',
    '192.168.1.0/24',
    '[::1]:9000',
    'fd00::/8',
  ]);
  const ok = (url: string) => allow.permits(new URL(url));

  it('matches names case-insensitively, subdomains with *., and ports when given', () => {
    expect(ok('https://api.example.com/x')).toBe(true);
    expect(ok('https://example.com/')).toBe(false);
    expect(ok('https://evil-api.example.com.attacker.net/')).toBe(false);
    expect(ok('http://nas.lan/')).toBe(true);
    expect(ok('http://a.b.lan:81/')).toBe(true);
    expect(ok('http://lan/')).toBe(false);
    expect(ok('http://svc:8080/')).toBe(true);
    expect(ok('http://svc/')).toBe(false);
  });

  it('matches IP addresses against ranges, and IPv6 literals with ports', () => {
    expect(ok('http://192.168.1.77/')).toBe(true);
    expect(ok('http://192.168.2.1/')).toBe(false);
    expect(ok('http://[::1]:9000/')).toBe(true);
    expect(ok('http://[::1]:9001/')).toBe(false);
    expect(ok('http://[fd12::5]/')).toBe(true);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterSeconds('3')).toBe(3);
    expect(
      retryAfterSeconds(
        'Wed, 21 Oct 2015 07:28:00 GMT',
        Date.parse('Wed, 21 Oct 2015 07:27:50 GMT'),
      ),
    ).toBe(10);
    expect(retryAfterSeconds('soon')).toBeUndefined();
  });
});
