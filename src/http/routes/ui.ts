import { existsSync, readdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../core/logger.ts';
import { DOCUMENT_HEADERS, setSecurityHeaders } from '../security-headers.ts';

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
 * a tenth of a start-up. Each file has its route (listed once at start, as @fastify/static did with
 * `wildcard: false`), an ETag and Last-Modified, and answers conditional requests with 304.
 * index.html is revalidated every time (it names the current assets, so a new build is picked up
 * at once); assets, whose names change with their content, are cached for an hour.
 *
 * @example
 * await uiRoutes(app, log);
 */
export async function uiRoutes(
  app: FastifyInstance,
  log: Logger,
  dir = WEB_DIST,
): Promise<boolean> {
  if (!existsSync(join(dir, 'index.html'))) {
    log.warn({ dir }, 'the web UI is not built (run "npm run build:web"): / will answer 404');
    return false;
  }
  app.decorateReply('sendUiFile', function (this: FastifyReply, file: string) {
    return sendFile(this, dir, file);
  });
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    );
  for (const file of files) app.get(`/${file}`, (_req, reply) => sendFile(reply, dir, file));
  app.get('/', (_req, reply) => sendFile(reply, dir, 'index.html'));
  return true;
}

async function sendFile(reply: FastifyReply, dir: string, file: string): Promise<FastifyReply> {
  const path = join(dir, file);
  let info;
  try {
    info = await stat(path);
  } catch {
    // Removed since the start (a rebuild): as if it had never been there.
    reply.callNotFound();
    return reply;
  }
  const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const modified = new Date(Math.floor(info.mtimeMs / 1000) * 1000);
  reply
    .header('etag', etag)
    .header('last-modified', modified.toUTCString())
    .header('cache-control', file.endsWith('.html') ? 'no-cache' : 'public, max-age=3600')
    .type(TYPES[extname(file)] ?? 'application/octet-stream');
  if (notModified(reply.request, etag, modified)) return reply.code(304).send();
  return reply.send(await readFile(path));
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
