import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { startServer } from './server.ts';
import type { TestServer } from './server.ts';

interface Echo {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: string;
}
interface Result<B = unknown> {
  status: number;
  headers: Record<string, string | string[]>;
  body: B;
  url: string;
  body_encoding?: string;
}

describe('http', () => {
  let t: TestApp;
  let s: TestServer;

  beforeAll(async () => {
    s = await startServer();
    t = await makeApp('http:\n  max_response_bytes: 1048576\n');
  });
  afterAll(async () => {
    await t.close();
    await s.close();
  });

  it('is enabled without a section, with every method in the catalog and secret credentials', () => {
    const plugin = t.service.registry.catalog().find((p) => p.name === 'http')!;
    expect(plugin.aliases).toEqual(['http.request']);
    expect(plugin.actions.map((a) => a.name)).toEqual(
      ['delete', 'get', 'head', 'options', 'patch', 'post', 'put', 'request'].map(
        (m) => `http.${m}`,
      ),
    );
    const get = plugin.actions.find((a) => a.name === 'http.get')!;
    const props = (
      get.params as { properties: Record<string, { description?: string; secret?: boolean }> }
    ).properties;
    expect(props.auth!.secret).toBe(true);
    expect(props.password!.secret).toBe(true);
  });

  it('sends each method, and returns {status, headers, body} with JSON parsed', async () => {
    for (const method of ['get', 'post', 'put', 'patch', 'delete', 'options']) {
      const res = await call(t, `http.${method}`, { url: `${s.url}/echo` });
      expect(res.errors, method).toEqual([]);
      const out = res.output as Result<Echo>;
      expect(out.status).toBe(200);
      expect(out.headers['content-type']).toBe('application/json');
      expect(out.body.method).toBe(method.toUpperCase());
      expect(out.url).toBe(`${s.url}/echo`);
    }
    const head = (await call(t, 'http.head', { url: `${s.url}/echo` })).output as Result;
    expect(head).toMatchObject({ status: 200, body: '' });
  });

  it("answers under Platypush's http.request name too", async () => {
    expect(
      ((await call(t, 'http.request.get', { url: `${s.url}/echo` })).output as Result<Echo>).body
        .method,
    ).toBe('GET');
    const res = await call(t, 'http.request', {
      method: 'PUT',
      url: `${s.url}/echo`,
      json: { a: 1 },
    });
    expect((res.output as Result<Echo>).body).toMatchObject({ method: 'PUT', body: '{"a":1}' });
  });

  it('sends query parameters, headers, JSON, form and raw bodies', async () => {
    const res = await call(t, 'http.post', {
      url: `${s.url}/echo?x=0`,
      params: { q: 'a b', tag: ['one', 'two'], none: null },
      headers: { 'X-Custom': 'yes', 'X-Number': 7 },
      json: { hello: ['world'] },
    });
    const echo = (res.output as Result<Echo>).body;
    expect(echo.query).toEqual([
      ['x', '0'],
      ['q', 'a b'],
      ['tag', 'one'],
      ['tag', 'two'],
    ]);
    expect(echo.headers).toMatchObject({
      'x-custom': 'yes',
      'x-number': '7',
      'content-type': 'application/json',
      'user-agent': 'Pipit',
    });
    expect(JSON.parse(echo.body)).toEqual({ hello: ['world'] });
    const form = (
      await call(t, 'http.post', { url: `${s.url}/echo`, data: { a: 1, b: ['x', 'y'] } })
    ).output as Result<Echo>;
    expect(form.body.body).toBe('a=1&b=x&b=y');
    expect(form.body.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const raw = (
      await call(t, 'http.put', {
        url: `${s.url}/echo`,
        data: 'plain text',
        headers: { 'content-type': 'text/csv' },
      })
    ).output as Result<Echo>;
    expect(raw.body).toMatchObject({ body: 'plain text', headers: { 'content-type': 'text/csv' } });
    expect(
      (await call(t, 'http.post', { url: `${s.url}/echo`, json: {}, data: 'x' })).errors[0],
    ).toMatch(/either "json".*or "data"/);
    expect((await call(t, 'http.get', { url: `${s.url}/echo`, json: { a: 1 } })).errors[0]).toMatch(
      /a GET request carries no body/,
    );
  });

  it('sends credentials: auth pairs, objects, bearer tokens, and URL credentials', async () => {
    const basic = `Basic ${Buffer.from('ada:s3cret').toString('base64')}`;
    const headerOf = async (args: Record<string, unknown>) =>
      ((await call(t, 'http.get', { url: `${s.url}/echo`, ...args })).output as Result<Echo>).body
        .headers.authorization;
    expect(await headerOf({ auth: ['ada', 's3cret'] })).toBe(basic);
    expect(await headerOf({ auth: { username: 'ada', password: 's3cret' } })).toBe(basic);
    expect(await headerOf({ username: 'ada', password: 's3cret' })).toBe(basic);
    expect(await headerOf({ auth: { bearer: 'tok' } })).toBe('Bearer tok');
    const inUrl = (await call(t, 'http.get', { url: `http://ada:s3cret@127.0.0.1:${s.port}/echo` }))
      .output as Result<Echo>;
    expect(inUrl.body.headers.authorization).toBe(basic);
  });

  it('returns text as text, binary as base64, gzip decompressed, and every set-cookie', async () => {
    expect((await call(t, 'http.get', { url: `${s.url}/text` })).output).toMatchObject({
      body: 'hello',
    });
    expect((await call(t, 'http.get', { url: `${s.url}/bin` })).output).toMatchObject({
      body: Buffer.from([0, 1, 2, 255]).toString('base64'),
      body_encoding: 'base64',
    });
    expect(
      (await call(t, 'http.get', { url: `${s.url}/text`, output: 'binary' })).output,
    ).toMatchObject({
      body: Buffer.from('hello').toString('base64'),
    });
    expect(
      (await call(t, 'http.get', { url: `${s.url}/echo`, output: 'text' })).output,
    ).toMatchObject({ body: expect.stringMatching(/^\{"method":"GET"/) });
    expect((await call(t, 'http.get', { url: `${s.url}/text`, output: 'json' })).errors[0]).toMatch(
      /is not JSON/,
    );
    expect((await call(t, 'http.get', { url: `${s.url}/gzip` })).output).toMatchObject({
      body: { zipped: true },
    });
    expect(
      ((await call(t, 'http.get', { url: `${s.url}/cookies` })).output as Result).headers[
        'set-cookie'
      ],
    ).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('makes a status of 400 or more an error, unless raise_for_status is false', async () => {
    const res = await call(t, 'http.get', { url: `${s.url}/status/404` });
    expect(res.reason).toBe('UPSTREAM_ERROR');
    expect(res.errors[0]).toBe(
      `http.get: GET ${s.url}/status/404 answered 404 Not Found: {"error":"status 404"}`,
    );
    expect(
      (await call(t, 'http.get', { url: `${s.url}/status/500`, raise_for_status: false })).output,
    ).toMatchObject({
      status: 500,
      body: { error: 'status 500' },
    });
  });

  it('follows redirects up to a limit, switching to GET after a 303 and keeping the method after a 307', async () => {
    const three = (await call(t, 'http.get', { url: `${s.url}/redirect/3` }))
      .output as Result<Echo>;
    expect(three).toMatchObject({ status: 200, url: `${s.url}/echo` });
    const limited = await call(t, 'http.get', { url: `${s.url}/redirect/5`, max_redirects: 2 });
    expect(limited.errors[0]).toMatch(
      /more than 2 redirects \(the last to http:\/\/127\.0\.0\.1:\d+\/redirect\/2\)/,
    );
    const notFollowed = (
      await call(t, 'http.get', { url: `${s.url}/redirect/1`, allow_redirects: false })
    ).output as Result;
    expect(notFollowed).toMatchObject({ status: 302, headers: { location: '/echo' } });
    const seeOther = (await call(t, 'http.post', { url: `${s.url}/see-other`, json: { a: 1 } }))
      .output as Result<Echo>;
    expect(seeOther.body).toMatchObject({ method: 'GET', body: '' });
    const temporary = (await call(t, 'http.post', { url: `${s.url}/temporary`, json: { a: 1 } }))
      .output as Result<Echo>;
    expect(temporary.body).toMatchObject({ method: 'POST', body: '{"a":1}' });
  });

  it('drops credentials when a redirect changes origin', async () => {
    const to = `http://localhost:${s.port}/echo`;
    const res = (
      await call(t, 'http.get', { url: `${s.url}/away`, params: { to }, auth: { bearer: 'tok' } })
    ).output as Result<Echo>;
    expect(res.url).toBe(to);
    expect(res.body.headers.authorization).toBeUndefined();
  });

  it('times out, naming the limit', async () => {
    const started = Date.now();
    const res = await call(t, 'http.get', { url: `${s.url}/slow`, timeout: 0.3 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.reason).toBe('TIMEOUT');
    expect(res.errors[0]).toBe(
      `http.get: GET ${s.url}/slow: no complete answer within 0.3 s: raise "timeout" (seconds) or http.timeout_seconds`,
    );
  });

  it('refuses bodies over max_response_bytes, declared or streamed', async () => {
    const declared = await call(t, 'http.get', {
      url: `${s.url}/big`,
      params: { bytes: 2_000_000 },
    });
    expect(declared.errors[0]).toMatch(
      /the response body is 2000000 bytes, over http.max_response_bytes \(1048576\)/,
    );
    const chunked = await call(t, 'http.get', {
      url: `${s.url}/big`,
      params: { bytes: 2_000_000, chunked: 1 },
    });
    expect(chunked.errors[0]).toMatch(/more than 1048576 bytes, over http.max_response_bytes/);
    const fits = (
      await call(t, 'http.get', { url: `${s.url}/big`, params: { bytes: 1_000_000, chunked: 1 } })
    ).output as Result<string>;
    expect(fits.body.length).toBe(1_000_000);
  });

  it('retries a 429 after its Retry-After, only when asked', async () => {
    const once = await call(t, 'http.get', { url: `${s.url}/limited`, params: { key: 'a' } });
    expect(once.errors[0]).toMatch(/answered 429 Too Many Requests \(Retry-After: 1\)/);
    const started = Date.now();
    const retried = await call(t, 'http.get', {
      url: `${s.url}/limited`,
      params: { key: 'b' },
      retries: 2,
      backoff: 0,
    });
    expect(retried.output).toMatchObject({ status: 200, body: { ok: true, attempt: 2 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries 5xx with backoff, and gives up after the last retry', async () => {
    const ok = await call(t, 'http.get', {
      url: `${s.url}/unavailable`,
      params: { key: 'c', fail: 2 },
      retries: 2,
      backoff: 0.05,
    });
    expect(ok.output).toMatchObject({ status: 200, body: { attempt: 3 } });
    const failed = await call(t, 'http.get', {
      url: `${s.url}/unavailable`,
      params: { key: 'd', fail: 5 },
      retries: 1,
      backoff: 0.05,
    });
    expect(failed.errors[0]).toMatch(/answered 503/);
    expect(s.hits.get('/unavailable?d')).toBe(2);
  });

  it('names connection failures and bad addresses', async () => {
    const gone = await startServer();
    await gone.close();
    const refused = await call(t, 'http.get', { url: `${gone.url}/` });
    expect(refused.reason).toBe('UPSTREAM_ERROR');
    expect(refused.errors[0]).toBe(
      `http.get: GET ${gone.url}/ failed: connect ECONNREFUSED 127.0.0.1:${gone.port}`,
    );
    expect((await call(t, 'http.get', { url: 'ftp://example.com/' })).errors[0]).toMatch(
      /is not http:\/\/ or https:\/\//,
    );
    expect((await call(t, 'http.get', { url: 'nope' })).errors[0]).toMatch(
      /is not an absolute address/,
    );
  });
});
