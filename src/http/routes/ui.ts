import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../core/logger.ts';
import { addSecurityHeaders, DOCUMENT_HEADERS, setSecurityHeaders } from '../security-headers.ts';

/** Where the built web UI lives (`npm run build:web`), the same from src/ and dist/. */
export const WEB_DIST = join(import.meta.dirname, '..', '..', '..', 'web', 'dist');

declare module 'fastify' {
  interface FastifyReply {
    /** Sends a file of the web UI (a path relative to its folder), with its caching headers. */
    sendUiFile(file: string): Promise<FastifyReply>;
  }
}

// The UI's own file types; anything else goes out as bytes.
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Serves the single-page web UI at `/`. Page routes the SPA handles itself (e.g. `/settings`) get
 * `index.html` via {@link serveSpaFallback}.
 *
 * The files are served by hand rather than by @fastify/static: the UI is a handful of files with
 * hashed names, and @fastify/static with its dependencies (send, mime, http-errors, glob) was about
 * a tenth of a start-up. Every request looks at the folder as it is on disk now: `npm ci`,
 * `npm test` or `npm install ../pipit` rebuild it while the service runs, and the new index.html
 * names new assets (a list of files made at start answered those 404, and the page stayed white).
 * Each file has an ETag and Last-Modified, and answers conditional requests with 304. index.html is
 * revalidated every time (it names the current assets, so a new build is picked up at once);
 * assets, whose names change with their content, are cached for an hour. While there is no
 * index.html (never built, or a rebuild in progress), pages get a short page that says so and
 * reloads itself, never a blank one.
 *
 * @example
 * await uiRoutes(app, log);
 */
export async function uiRoutes(
  app: FastifyInstance,
  log: Logger,
  dir = WEB_DIST,
): Promise<boolean> {
  if (!existsSync(join(dir, 'index.html')))
    log.warn(
      { dir },
      'the web UI is not built (run "npm run build:web"): / says so until it is, and picks it up without a restart',
    );
  app.decorateReply('sendUiFile', function (this: FastifyReply, file: string) {
    return sendFile(this, dir, file);
  });
  app.get('/', (_req, reply) => sendFile(reply, dir, 'index.html'));
  // Static and parametric routes win over this wildcard, so it only sees what no route claims.
  // Its security headers are set only for a file it sends: what it passes on to the not-found
  // handler gets that handler's (the API set on a JSON 404).
  app.get('/*', { config: { ownSecurityHeaders: true } }, (req, reply) => {
    const file = uiFileName((req.params as { '*': string })['*']);
    if (file === undefined) {
      reply.callNotFound();
      return reply;
    }
    return sendFile(reply, dir, file);
  });
  return true;
}

/**
 * The UI file a URL path names, or undefined when it cannot name one: empty, dot or dot-dot
 * segments, hidden names, backslashes or NUL. The path is already percent-decoded, so `%2e%2e`
 * arrives as `..` and is refused here too.
 */
function uiFileName(path: string): string | undefined {
  if (!path || path.includes('\\') || path.includes('\0')) return undefined;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s.startsWith('.'))) return undefined;
  return segments.join('/');
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">
<title>Pipit</title></head>
<body><h1>Pipit's web UI is not there right now</h1>
<p>It is being rebuilt, or it was never built: run <code>npm run build:web</code> in Pipit's folder.
This page reloads itself every few seconds and shows the UI as soon as it is there; the API works
meanwhile.</p></body></html>
`;

async function sendFile(reply: FastifyReply, dir: string, file: string): Promise<FastifyReply> {
  const path = join(dir, file);
  let info;
  try {
    info = await stat(path);
    if (!info.isFile()) throw new Error('not a file');
  } catch {
    return notThere(reply, file);
  }
  addSecurityHeaders(reply.request, reply, DOCUMENT_HEADERS);
  const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const modified = new Date(Math.floor(info.mtimeMs / 1000) * 1000);
  reply
    .header('etag', etag)
    .header('last-modified', modified.toUTCString())
    .header('cache-control', file.endsWith('.html') ? 'no-cache' : 'public, max-age=3600')
    .type(TYPES[extname(file)] ?? 'application/octet-stream');
  if (notModified(reply.request, etag, modified)) return reply.code(304).send();
  let body: Buffer;
  try {
    body = await readFile(path);
  } catch {
    // Removed between the stat and the read (a rebuild emptying the folder).
    for (const name of ['etag', 'last-modified', 'cache-control', ...Object.keys(DOCUMENT_HEADERS)])
      reply.removeHeader(name);
    return notThere(reply, file);
  }
  return reply.send(body);
}

// index.html missing: the page that says so and reloads itself. Any other file (an asset of an
// older build, or no such file): as if there were no route.
function notThere(reply: FastifyReply, file: string): FastifyReply {
  if (file === 'index.html') {
    addSecurityHeaders(reply.request, reply, DOCUMENT_HEADERS);
    return reply
      .code(503)
      .header('retry-after', '3')
      .header('cache-control', 'no-store')
      .type(TYPES['.html']!)
      .send(NOT_BUILT_PAGE);
  }
  reply.callNotFound();
  return reply;
}

// RFC 9110 §13.1: If-None-Match wins over If-Modified-Since when both are sent.
function notModified(req: FastifyRequest, etag: string, modified: Date): boolean {
  const tags = req.headers['if-none-match'];
  if (tags !== undefined)
    return (
      tags === '*' ||
      tags.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.slice(2))
    );
  const since = req.headers['if-modified-since'];
  return since !== undefined && Date.parse(since) >= modified.getTime();
}

/**
 * True when a 404 should be answered with the SPA's index.html: a GET for a page (the browser
 * asks for HTML) rather than an API call or a missing asset.
 */
export function wantsSpaPage(req: FastifyRequest): boolean {
  return (
    req.method === 'GET' &&
    /text\/html/.test(req.headers.accept ?? '') &&
    !/\.[a-z0-9]+$/i.test(req.url.split('?')[0]!)
  );
}

/**
 * Sends index.html (revalidated on every load, like `/`). It is answered by the not-found
 * handler, outside the routes that get security headers, so it sets the document set itself.
 */
export function serveSpaFallback(reply: FastifyReply): Promise<FastifyReply> {
  setSecurityHeaders(reply.request, reply, DOCUMENT_HEADERS);
  return reply.sendUiFile('index.html');
}
