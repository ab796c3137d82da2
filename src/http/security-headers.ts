import type { FastifyInstance } from 'fastify';

/**
 * The security headers of documents (the web UI, its assets, web hook answers, which may be HTML),
 * computed once. @fastify/helmet (DESIGN's choice) rebuilt its CSP string on every response: 4.5%
 * of the CPU of a `POST /execute` under load, so Pipit sends the same headers from this table.
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; base-uri 'self'; connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; img-src 'self' data:; object-src 'none'; script-src 'self'; style-src 'self'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/**
 * The headers of JSON API answers. A browser never renders these as a page, so CSP and framing
 * rules protect nothing there; what matters is that they are not sniffed as HTML, not readable
 * cross-origin, and not cached (they carry tokens and private data). Fewer bytes on the hottest path.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Paths answered with JSON only (exact matches, or prefixes ending in "/"). */
const API_PATHS = new Set([
  '/execute',
  '/auth',
  '/auth/status',
  '/register',
  '/login',
  '/logout',
  '/tokens',
]);

const HSTS = 'max-age=31536000; includeSubDomains';

// The matched route's pattern: no URL parsing per request.
function isApi(route: string | undefined): boolean {
  return route !== undefined && (API_PATHS.has(route) || route.startsWith('/tokens/'));
}

/**
 * Adds {@link API_HEADERS} to API answers and {@link DOCUMENT_HEADERS} to everything else (and HSTS
 * over HTTPS).
 *
 * @example
 * securityHeaders(app);
 */
export function securityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(isApi(req.routeOptions.url) ? API_HEADERS : DOCUMENT_HEADERS);
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}
