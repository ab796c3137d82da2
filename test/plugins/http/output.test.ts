import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { startServer } from './server.ts';
import type { TestServer } from './server.ts';

describe('http: output "json" and what is not JSON', () => {
  let t: TestApp;
  let s: TestServer;

  beforeAll(async () => {
    s = await startServer();
    t = await makeApp('');
  });
  afterAll(async () => {
    await t.close();
    await s.close();
  });

  it('reports an error status with its body, not "the response is not JSON"', async () => {
    const failed = await call(t, 'http.get', { url: `${s.url}/page/500`, output: 'json' });
    expect(failed.reason).toBe('UPSTREAM_ERROR');
    expect(failed.errors[0]).toBe(
      `http.get: GET ${s.url}/page/500 answered 500 Internal Server Error: <h1>Error 500</h1>`,
    );
    const returned = await call(t, 'http.get', {
      url: `${s.url}/page/503`,
      output: 'json',
      raise_for_status: false,
    });
    expect(returned.output).toMatchObject({ status: 503, body: '<h1>Error 503</h1>' });
  });

  it('returns body "" for HEAD, 204 and empty bodies whatever "output" asks for', async () => {
    for (const output of ['json', 'binary', 'text', 'auto']) {
      const head = await call(t, 'http.head', { url: `${s.url}/echo`, output });
      expect(head.output, output).toEqual(expect.objectContaining({ status: 200, body: '' }));
      expect(head.output, output).not.toHaveProperty('body_encoding');
      const empty = await call(t, 'http.delete', { url: `${s.url}/status/204`, output });
      expect(empty.output, output).toEqual(expect.objectContaining({ status: 204, body: '' }));
    }
    // A success that is not JSON still fails under "json".
    const text = await call(t, 'http.get', { url: `${s.url}/text`, output: 'json' });
    expect(text.errors[0]).toMatch(/the response is not JSON \(text\/plain; charset=utf-8\)/);
  });
});
