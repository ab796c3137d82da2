import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.ts';
import { serveSpaFallback, uiRoutes } from '../../src/http/routes/ui.ts';
import { tempDir } from '../helpers/service.ts';

const { dir: root, cleanup } = tempDir();
// The UI's folder inside the temporary one, so that a file beside it is still the test's own.
const dir = join(root, 'ui');
const app = Fastify();

beforeAll(async () => {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1);');
  writeFileSync(join(dir, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
  expect(await uiRoutes(app, createLogger({ level: 'silent' }), dir)).toBe(true);
  app.setNotFoundHandler((_req, reply) => serveSpaFallback(reply));
});
afterAll(async () => {
  await app.close();
  cleanup();
});

describe('the web UI files', () => {
  it('serves each file with its type and caching, / and the SPA fallback as index.html', async () => {
    const cases = [
      ['/', 'text/html; charset=utf-8', 'no-cache'],
      ['/index.html', 'text/html; charset=utf-8', 'no-cache'],
      ['/assets/index-abc.js', 'text/javascript; charset=utf-8', 'public, max-age=3600'],
      ['/assets/index-abc.css', 'text/css; charset=utf-8', 'public, max-age=3600'],
      ['/favicon.svg', 'image/svg+xml', 'public, max-age=3600'],
      ['/settings', 'text/html; charset=utf-8', 'no-cache'],
    ];
    for (const [url, type, cache] of cases) {
      const res = await app.inject({ method: 'GET', url: url! });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(type);
      expect(res.headers['cache-control'], url).toBe(cache);
    }
    expect((await app.inject({ method: 'GET', url: '/' })).body).toContain('<div id="app">');
    const head = await app.inject({ method: 'HEAD', url: '/assets/index-abc.js' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('answers 304 to a matching If-None-Match or a recent enough If-Modified-Since', async () => {
    const first = await app.inject({ method: 'GET', url: '/' });
    const etag = first.headers.etag as string;
    const modified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const revalidate = (headers: Record<string, string>) =>
      app.inject({ method: 'GET', url: '/', headers });
    expect((await revalidate({ 'if-none-match': etag })).statusCode).toBe(304);
    expect((await revalidate({ 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304);
    expect((await revalidate({ 'if-none-match': '"other"' })).statusCode).toBe(200);
    // "*" matches any current representation (RFC 9110, 13.1.2).
    const any = await revalidate({ 'if-none-match': '*' });
    expect([any.statusCode, any.body]).toEqual([304, '']);
    expect((await revalidate({ 'if-modified-since': modified })).statusCode).toBe(304);
    expect((await revalidate({ 'if-modified-since': new Date(0).toUTCString() })).statusCode).toBe(
      200,
    );
    // If-None-Match wins when both are sent.
    expect(
      (await revalidate({ 'if-none-match': '"other"', 'if-modified-since': modified })).statusCode,
    ).toBe(200);
  });

  it('serves files added after the start (a rebuild) and refuses paths that leave the folder', async () => {
    writeFileSync(join(dir, 'assets', 'index-new.js'), 'console.log(2);');
    const added = await app.inject({ method: 'GET', url: '/assets/index-new.js' });
    expect([added.statusCode, added.body]).toEqual([200, 'console.log(2);']);
    writeFileSync(join(root, 'outside.txt'), 'secret');
    for (const url of [
      '/../outside.txt',
      '/assets/../../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/%2e%2e/%2e%2e/outside.txt',
      '/..%2foutside.txt',
      '/.hidden',
      '/assets//index-abc.js',
      '/assets',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body, url).not.toBe('secret');
      expect(res.headers['content-type'], url).not.toBe('text/plain; charset=utf-8');
    }
  });

  it('answers pages with a self-reloading 503 while index.html is missing, then the UI again', async () => {
    rmSync(join(dir, 'index.html'));
    try {
      for (const url of ['/', '/settings']) {
        const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(503);
        expect(res.headers['retry-after']).toBe('3');
        expect(res.body).toContain('<meta http-equiv="refresh" content="3">');
        expect(res.body).toContain('npm run build:web');
        expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      }
    } finally {
      writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
    }
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
  });
});
