import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where the built web UI lives (`npm run build:web`), the same from src/ and dist/. */
export const WEB_DIST = join(import.meta.dirname, '..', '..', '..', 'web', 'dist');

/**
 * Serves the single-page web UI at `/`. Page routes the SPA handles itself (e.g. `/settings`) get
 * `index.html` via {@link serveSpaFallback}.
 *
 * @example
 * await uiRoutes(app);
 */
export async function uiRoutes(app: FastifyInstance, dir = WEB_DIST): Promise<boolean> {
  if (!existsSync(join(dir, 'index.html'))) {
    app.log.warn({ dir }, 'the web UI is not built (run "npm run build:web"): / will answer 404');
    return false;
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    index: ['index.html'],
    wildcard: false,
    cacheControl: true,
    maxAge: '1h',
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

/** Sends index.html with no caching, so a new build is picked up at once. */
export function serveSpaFallback(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-cache').sendFile('index.html');
}
