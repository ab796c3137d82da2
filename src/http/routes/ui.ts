import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../core/logger.ts';
import { DOCUMENT_HEADERS, setSecurityHeaders } from '../security-headers.ts';

/** Where the built web UI lives (`npm run build:web`), the same from src/ and dist/. */
export const WEB_DIST = join(import.meta.dirname, '..', '..', '..', 'web', 'dist');

/**
 * Serves the single-page web UI at `/`. Page routes the SPA handles itself (e.g. `/settings`) get
 * `index.html` via {@link serveSpaFallback}.
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
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    index: ['index.html'],
    wildcard: false,
    cacheControl: true,
    // Assets have content hashes in their names and are cached; index.html names the current ones,
    // so it is revalidated every time and a new build is picked up at once.
    maxAge: '1h',
    setHeaders: (reply, path) => {
      if (path.endsWith('.html')) reply.header('cache-control', 'no-cache');
    },
  });
  return true;
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
export function serveSpaFallback(reply: FastifyReply): FastifyReply {
  setSecurityHeaders(reply.request, reply, DOCUMENT_HEADERS);
  return reply.sendFile('index.html');
}
