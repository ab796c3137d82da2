import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';

/**
 * The security headers of documents (the web UI, its assets, web hook answers, which may be HTML),
 * computed once. @fastify/helmet (the usual plugin for this) rebuilt its CSP string on every
 * response: 4.5% of the CPU of a `POST /execute` under load, so Pipit sends the same headers from
 * this table.
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

/** Paths answered with JSON only (exact matches, or under `/tokens/`). */
const API_PATHS = new Set([
  '/execute',
  '/auth',
  '/auth/status',
  '/register',
  '/login',
  '/logout',
  '/tokens',
  '/reload',
  '/healthz',
  '/readyz',
  '/openapi.json',
  '/metrics',
  '/spotify/auth/status',
  '/spotify/auth/start',
  '/spotify/auth/disconnect',
]);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route sets its own security headers (see {@link securityHeaders}). */
    ownSecurityHeaders?: boolean;
  }
}

const HSTS = 'max-age=31536000; includeSubDomains';

/** True for a route pattern whose answers are JSON only (they get {@link API_HEADERS}). */
export function isApiRoute(url: string): boolean {
  return API_PATHS.has(url) || url.startsWith('/tokens/');
}

/**
 * Sets a table of security headers on a reply (and HSTS over HTTPS).
 *
 * @example
 * setSecurityHeaders(request, reply, API_HEADERS);
 */
export function setSecurityHeaders(
  req: FastifyRequest,
  reply: FastifyReply,
  headers: Readonly<Record<string, string>>,
): void {
  for (const name in headers) reply.header(name, headers[name]);
  if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
}

/**
 * The table for an answer of this content type: {@link API_HEADERS} for JSON and plain text, which
 * a browser shows as text (they are sent with `nosniff`) and never runs as a page;
 * {@link DOCUMENT_HEADERS} for anything else (HTML, images, downloads, or no type at all).
 *
 * @example
 * headersFor('application/json; charset=utf-8'); // API_HEADERS
 * headersFor('text/html'); // DOCUMENT_HEADERS
 */
export function headersFor(contentType: string | undefined): Readonly<Record<string, string>> {
  const media = contentType?.split(';', 1)[0]!.trim().toLowerCase();
  return media === 'application/json' || media === 'text/plain' ? API_HEADERS : DOCUMENT_HEADERS;
}

/**
 * {@link setSecurityHeaders}, leaving alone the headers the reply has already (a web hook's
 * listener may set its own Cache-Control or CSP).
 *
 * @example
 * addSecurityHeaders(request, reply, headersFor(String(reply.getHeader('content-type'))));
 */
export function addSecurityHeaders(
  req: FastifyRequest,
  reply: FastifyReply,
  headers: Readonly<Record<string, string>>,
): void {
  for (const name in headers) if (!reply.hasHeader(name)) reply.header(name, headers[name]);
  if (req.protocol === 'https' && !reply.hasHeader('strict-transport-security'))
    reply.header('strict-transport-security', HSTS);
}

const apiHook: onRequestHookHandler = (req, reply, done) => {
  setSecurityHeaders(req, reply, API_HEADERS);
  done();
};
const documentHook: onRequestHookHandler = (req, reply, done) => {
  setSecurityHeaders(req, reply, DOCUMENT_HEADERS);
  done();
};

/**
 * Gives every route registered on `app` (and its child scopes) from now on an `onRequest` hook
 * with the right header table, chosen once per route rather than per request. Answers made
 * outside such routes set their own: `/execute` and the not-found and error replies (see
 * `sendError`), which is what keeps `/execute` free of hooks, and routes whose answers' type is
 * known only at the end, which say so with `config: { ownSecurityHeaders: true }` and pick their
 * table with {@link headersFor} (`/hook/<name>`: a listener answers JSON, text or HTML).
 *
 * @example
 * await app.register(async (scope) => { securityHeaders(scope); scope.get('/x', handler); });
 */
export function securityHeaders(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.ownSecurityHeaders) return;
    const hook = isApiRoute(route.url) ? apiHook : documentHook;
    const own = route.onRequest;
    route.onRequest = own === undefined ? [hook] : [hook, ...(Array.isArray(own) ? own : [own])];
  });
}
