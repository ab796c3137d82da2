import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog, makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { startServer } from './server.ts';
import type { TestServer } from './server.ts';

// Secrets must stay out of what is kept or shown: the caller's errors, the log and the run history.
describe('http: secrets in errors, the log and the run history', () => {
  let t: TestApp;
  let s: TestServer;
  let lines: Array<Record<string, unknown>>;

  beforeAll(async () => {
    s = await startServer();
    const captured = captureLog('debug');
    lines = captured.lines;
    t = await makeApp('', { log: captured.log });
  });
  afterAll(async () => {
    await t.close();
    await s.close();
  });

  const history = async () => JSON.stringify((await call(t, 'runs.list', {})).output);
  const leaked = async (secret: string) =>
    (await history()).includes(secret) || JSON.stringify(lines).includes(secret);

  it('refuses a header name or value that would break the request, quoting no value', async () => {
    const bearer = await call(t, 'http.get', {
      url: `${s.url}/echo`,
      auth: { bearer: 'tok\nBEARERSECRET' },
    });
    expect(bearer.reason).toBe('INVALID_ARGUMENTS');
    expect(bearer.errors[0]).toMatch(
      /^http\.get: "auth": the bearer token contains a line break or NUL character \(CR, LF or \\0\)/,
    );
    const value = await call(t, 'http.get', {
      url: `${s.url}/echo`,
      headers: { 'X-Api-Key': 'a\r\nHEADERSECRET' },
    });
    expect(value.reason).toBe('INVALID_ARGUMENTS');
    expect(value.errors[0]).toMatch(/^http\.get: "headers": the value of "X-Api-Key" contains a/);
    const latin = await call(t, 'http.get', { url: `${s.url}/echo`, headers: { 'X-A': 'a€' } });
    expect(latin.errors[0]).toMatch(/"X-A" contains the character U\+20AC at position 2/);
    const name = await call(t, 'http.get', { url: `${s.url}/echo`, headers: { 'Bad Name': 'x' } });
    expect(name.reason).toBe('INVALID_ARGUMENTS');
    expect(name.errors[0]).toMatch(/^http\.get: "headers": "Bad Name" is not a valid header name/);
    expect(await leaked('BEARERSECRET')).toBe(false);
    expect(await leaked('HEADERSECRET')).toBe(false);
    expect(s.hits.get('/echo?')).toBeUndefined();
  });

  it('keeps a URL with its password masked in the run history, and still sends it', async () => {
    const res = await call(t, 'http.get', { url: `http://ada:URLSECRET@127.0.0.1:${s.port}/echo` });
    const body = (res.output as { body: { headers: Record<string, string> } }).body;
    expect(body.headers.authorization).toBe(
      `Basic ${Buffer.from('ada:URLSECRET').toString('base64')}`,
    );
    const recorded = await history();
    expect(recorded).toContain(`"url":"http://ada:[redacted]@127.0.0.1:${s.port}/echo"`);
    expect(await leaked('URLSECRET')).toBe(false);
  });

  it('shows URLs in messages with secret query values and user info masked', async () => {
    const res = await call(t, 'http.get', {
      url: `http://ada:PWSECRET@127.0.0.1:${s.port}/status/404?q=1`,
      params: { api_key: 'KEYSECRET', page: 2 },
    });
    expect(res.errors[0]).toBe(
      `http.get: GET http://127.0.0.1:${s.port}/status/404?q=1&api_key=[redacted]&page=2 answered 404 Not Found: {"error":"status 404"}`,
    );
    const away = await call(t, 'http.get', {
      url: `${s.url}/away`,
      params: { to: `http://u:REDIRSECRET@127.0.0.1:${s.port}/echo?token=TOKSECRET` },
    });
    expect(away.reason).toBe('UPSTREAM_ERROR');
    expect(away.errors[0]).toMatch(
      /redirected to http:\/\/127\.0\.0\.1:\d+\/echo\?token=\[redacted\] with a user name or password in the address, which is not followed/,
    );
    const ftp = await call(t, 'http.get', { url: 'ftp://ada:FTPSECRET@127.0.0.1/' });
    expect(ftp.errors[0]).toBe(
      'http.get: "url" "ftp://ada:[redacted]@127.0.0.1/" is not http:// or https://',
    );
    for (const secret of ['KEYSECRET', 'PWSECRET', 'FTPSECRET'])
      expect(await leaked(secret), secret).toBe(false);
    // The first hop carries the target in "to" as the caller wrote it: only the target's part counts.
    expect(away.errors[0]!.split('redirected to')[1]).not.toMatch(/REDIRSECRET|TOKSECRET/);
  });

  it('refuses credentials in the URL with bad percent-encoding, without echoing them', async () => {
    const res = await call(t, 'http.get', { url: `http://%E0%A4%A:PCTSECRET@127.0.0.1:1/` });
    expect(res.reason).toBe('INVALID_ARGUMENTS');
    expect(res.errors[0]).toMatch(
      /^http\.get: the user name or password in "url" has invalid percent-encoding/,
    );
    expect(res.errors[0]).not.toContain('PCTSECRET');
  });
});
