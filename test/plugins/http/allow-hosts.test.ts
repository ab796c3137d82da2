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
});
