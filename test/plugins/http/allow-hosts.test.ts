import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { startServer } from './server.ts';
import type { TestServer } from './server.ts';

describe('http.allow_hosts', () => {
  let t: TestApp;
  let s: TestServer;

  beforeAll(async () => {
    s = await startServer();
    t = await makeApp('http:\n  allow_hosts: [127.0.0.1]\n');
  });
  afterAll(async () => {
    await t.close();
    await s.close();
  });

  it('allows listed hosts and refuses others, redirects included', async () => {
    expect((await call(t, 'http.get', { url: `${s.url}/echo` })).errors).toEqual([]);
    const other = await call(t, 'http.get', { url: `http://localhost:${s.port}/echo` });
    expect(other.reason).toBe('FORBIDDEN');
    expect(other.errors[0]).toBe(
      `http.get: GET http://localhost:${s.port}/echo: host "localhost:${s.port}", which is not in http.allow_hosts (127.0.0.1): add it to http.allow_hosts in the configuration`,
    );
    const viaRedirect = await call(t, 'http.get', {
      url: `${s.url}/away`,
      params: { to: `http://localhost:${s.port}/echo` },
    });
    expect(viaRedirect.errors[0]).toMatch(
      /a redirect leads to host "localhost:\d+", which is not in http.allow_hosts/,
    );
    expect(s.hits.get('/echo?')).toBe(1);
  });

  it('refuses an IP range with an impossible prefix at startup, naming the entry', async () => {
    await expect(
      makeApp('http:\n  allow_hosts: [api.example.com, 192.168.1.0/33]\n'),
    ).rejects.toThrow(
      /config\.yaml: http\.allow_hosts\.1: the prefix length \/33 is out of range: an IPv4 range takes \/0 to \/32; got "192\.168\.1\.0\/33"/,
    );
    await expect(makeApp('http:\n  allow_hosts: ["fd00::/129"]\n')).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('an IPv6 range takes /0 to /128') as unknown,
    });
    await expect(makeApp('http:\n  allow_hosts: [example.com/24]\n')).rejects.toThrow(
      /http\.allow_hosts\.0: not an IP range such as 192\.168\.1\.0\/24/,
    );
  });
});
