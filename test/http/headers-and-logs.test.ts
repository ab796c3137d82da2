import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../src/http/routes/ui.ts';
import { captureLog, makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const API_SET = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

function expectApiHeaders(res: { statusCode: number; headers: Record<string, unknown> }) {
  expect(res.headers, `status ${res.statusCode}`).toMatchObject(API_SET);
  expect(res.headers['content-security-policy']).toBeUndefined();
}

function expectDocumentHeaders(res: { headers: Record<string, unknown> }) {
  expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

describe('security headers', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await makeApp();
    token = await registerAndToken(t.app);
  });
  afterAll(() => t.close());

  const post = (headers: Record<string, string>, payload: string) =>
    t.app.inject({ method: 'POST', url: '/execute', headers, payload });
  const json = { 'content-type': 'application/json' };
  const echo = JSON.stringify({ type: 'request', action: 'utils.echo', args: { a: 1 } });

  it('puts the API set on every /execute answer (a route without hooks), success or failure', async () => {
    const bearer = { ...json, authorization: `Bearer ${token}` };
    const answers = [
      [await post(bearer, echo), 200],
      [await post(bearer, '{"type": "request", "action":'), 400],
      [await post(json, echo), 401],
      [await post({ ...bearer, 'content-type': 'text/plain' }, 'not json'), 400],
      [await post(bearer, JSON.stringify({ type: 'request', action: 'nope.nothing' })), 404],
    ] as const;
    for (const [res, status] of answers) {
      expect(res.statusCode).toBe(status);
      expectApiHeaders(res);
    }
    expect(answers[3][0].json().response.errors[0]).toMatch(/malformed JSON/);
  });

  it('puts the API set on not-found answers, the document set on pages, assets and SPA routes; pages are revalidated, assets cached', async () => {
    expect(existsSync(join(WEB_DIST, 'index.html')), 'run "npm run build:web" first').toBe(true);
    const missing = await t.app.inject({ method: 'GET', url: '/no/such/thing' });
    expect(missing.statusCode).toBe(404);
    expectApiHeaders(missing);

    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expectDocumentHeaders(page);
    expectDocumentHeaders(await t.app.inject({ method: 'HEAD', url: '/' }));

    const asset = readdirSync(join(WEB_DIST, 'assets'))[0]!;
    const script = await t.app.inject({ method: 'GET', url: `/assets/${asset}` });
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toBe('public, max-age=3600');
    expectDocumentHeaders(script);

    const spa = await t.app.inject({
      method: 'GET',
      url: '/settings',
      headers: { accept: 'text/html' },
    });
    expect(spa.statusCode).toBe(200);
    expect(spa.body).toContain('<div id="app">');
    expect(spa.headers['cache-control']).toBe('no-cache');
    expectDocumentHeaders(spa);

    const auth = await t.app.inject({ method: 'GET', url: '/auth/status' });
    expectApiHeaders(auth);
  });
});

describe('security headers of web hook answers', () => {
  // What a listener answers decides the set: JSON and text are shown as text (nosniff) and get
  // the API set; HTML and other types get the document set; the listener's own headers win.
  const SCRIPT = `import { hook } from 'pipit';
hook('WebhookEvent', { hook: 'json' }, () => ({ ok: true }));
hook('WebhookEvent', { hook: 'text' }, () => 'plain words');
hook('WebhookEvent', { hook: 'html' }, (e) => e.send_response('<p>hi</p>', 200, { 'Content-Type': 'text/html; charset=utf-8' }));
hook('WebhookEvent', { hook: 'bytes' }, () => Buffer.from('raw'));
hook('WebhookEvent', { hook: 'cached' }, (e) => e.send_response({ ok: 1 }, 200, { 'Cache-Control': 'max-age=60' }));
hook('WebhookEvent', { hook: 'own-csp' }, (e) => e.send_response('<p>x</p>', 200, { 'content-type': 'text/html', 'content-security-policy': "default-src 'none'" }));
hook('WebhookEvent', { hook: 'empty' }, () => undefined);
hook('WebhookEvent', { hook: 'broken' }, () => { throw new Error('kaboom'); });
hook('WebhookEvent', { hook: 'bigint' }, () => ({ n: 10n }));
hook('WebhookEvent', { hook: 'bigint-sent' }, (e) => { e.send_response({ n: 10n }); return 'then this'; });
`;
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp('', { scripts: { 'hooks.mjs': SCRIPT } });
  });
  afterAll(() => t.close());
  const get = (name: string) => t.app.inject({ method: 'GET', url: `/hook/${name}` });

  it('sends the API set with JSON, text, empty and error answers', async () => {
    for (const [name, status, type] of [
      ['json', 200, /^application\/json/],
      ['text', 200, /^text\/plain/],
      ['empty', 204, undefined],
      ['broken', 500, /^application\/json/],
      ['bigint', 500, /^application\/json/],
      ['no-such-hook', 404, /^application\/json/],
    ] as const) {
      const res = await get(name);
      expect(res.statusCode, name).toBe(status);
      if (type) expect(res.headers['content-type'], name).toMatch(type);
      expectApiHeaders(res);
      expect(res.headers['x-frame-options'], name).toBeUndefined();
    }
  });

  it('answers 500 naming the problem when a listener returns or sends what JSON cannot carry', async () => {
    for (const name of ['bigint', 'bigint-sent']) {
      const res = await get(name);
      expect(res.statusCode, name).toBe(500);
      expectApiHeaders(res);
      expect(res.json().response.errors[0]).toMatch(
        new RegExp(
          `the answer of hook "${name}" cannot be stored or sent as JSON: it holds a BigInt \\(at "n"\\)`,
        ),
      );
    }
  });

  it('sends the document set with HTML and other types, and keeps the headers a listener set', async () => {
    const html = await get('html');
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expectDocumentHeaders(html);
    const bytes = await get('bytes');
    expect(bytes.headers['content-type']).toBe('application/octet-stream');
    expectDocumentHeaders(bytes);

    const cached = await get('cached');
    expect(cached.headers['cache-control']).toBe('max-age=60');
    expect(cached.headers['x-content-type-options']).toBe('nosniff');
    const csp = await get('own-csp');
    expect(csp.headers['content-security-policy']).toBe("default-src 'none'");
    expect(csp.headers['x-frame-options']).toBe('DENY');
  });
});

describe('HTTP logging', () => {
  const BROKEN = `import { hook } from 'pipit';
hook('WebhookEvent', { hook: 'broken' }, () => { throw new Error('kaboom in a listener'); });
`;
  async function appLoggingAt(level: 'warn' | 'info' | 'debug') {
    const { log, lines } = captureLog(level);
    const t = await makeApp('', { log, scripts: { 'broken.mjs': BROKEN } });
    return { app: t.app, lines, close: () => t.close() };
  }

  it('below "info" writes no access lines, yet logs an internal error with its request id, method and URL', async () => {
    const t = await appLoggingAt('warn');
    try {
      const token = await registerAndToken(t.app);
      const res = await t.app.inject({ method: 'GET', url: '/hook/broken?token=hush' });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('kaboom');
      expect(res.headers).toMatchObject(API_SET);
      await t.app.inject({
        method: 'POST',
        url: '/execute',
        headers: { authorization: `Bearer ${token}` },
        payload: { type: 'request', action: 'utils.echo' },
      });
      await expect.poll(() => t.lines.some((l) => l.msg === 'internal error')).toBe(true);
      const internal = t.lines.find((l) => l.msg === 'internal error')!;
      expect(internal).toMatchObject({ method: 'GET', url: '/hook/broken?token=[redacted]' });
      expect(internal.reqId).toEqual(expect.any(String));
      expect(t.lines.some((l) => JSON.stringify(l).includes('kaboom'))).toBe(true);
      expect(t.lines.filter((l) => l.msg === 'request completed')).toEqual([]);
      expect(JSON.stringify(t.lines)).not.toContain('hush');
    } finally {
      await t.close();
    }
  });

  it('at "info" (the default) a request writes no line', async () => {
    const t = await appLoggingAt('info');
    try {
      const res = await t.app.inject({ method: 'GET', url: '/auth/status' });
      expect(res.statusCode).toBe(200);
      expect(t.lines.filter((l) => l.component === 'http')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('at "debug" writes access lines with a request id and a redacted URL', async () => {
    const t = await appLoggingAt('debug');
    try {
      await t.app.inject({ method: 'GET', url: '/auth/status?token=hush' });
      await expect.poll(() => t.lines.filter((l) => l.msg === 'request completed').length).toBe(1);
      const incoming = t.lines.find((l) => l.msg === 'incoming request')!;
      expect(incoming.reqId).toBeDefined();
      expect(incoming.req).toMatchObject({ method: 'GET', url: '/auth/status?token=[redacted]' });
      const done = t.lines.find((l) => l.msg === 'request completed')!;
      expect(done).toMatchObject({ reqId: incoming.reqId, res: { statusCode: 200 } });
      expect(JSON.stringify(t.lines)).not.toContain('hush');
    } finally {
      await t.close();
    }
  });
});
