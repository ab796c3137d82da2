import type { FastifyInstance } from 'fastify';
import type { SpotifyAuth } from './auth.ts';

/** The path Spotify redirects to after the user allows access (SPEC: `/<provider>/auth_callback`). */
export const CALLBACK_PATH = '/spotify/auth_callback';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small HTML page for the browser that followed Spotify's redirect.
 *
 * @example
 * callbackPage(200, 'Authorized.');
 */
export function callbackPage(status: number, text: string): string {
  const title = status === 200 ? 'Spotify authorized' : 'Spotify authorization failed';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${escapeHtml(text)}</p></body></html>`;
}

/**
 * Serves `GET /spotify/auth_callback` (unauthenticated: only a pending, unexpired, single-use
 * `state` is accepted).
 *
 * @example
 * callbackRoute(app, auth);
 */
export function callbackRoute(app: FastifyInstance, auth: SpotifyAuth): void {
  app.get(CALLBACK_PATH, async (req, reply) => {
    const outcome = await auth.completeAuthorization(req.query as Record<string, unknown>);
    return reply
      .code(outcome.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(callbackPage(outcome.status, outcome.text));
  });
}
