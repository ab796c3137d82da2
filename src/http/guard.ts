import { timingSafeEqual } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/auth.ts';
import { PipitError } from '../core/errors.ts';
import type { Service } from '../app/service.ts';

/** The name of the web UI's HttpOnly session cookie: Platypush's, which its clients expect. */
export const SESSION_COOKIE = 'session_token';
/** The name earlier versions of Pipit gave it, still read so that nobody is logged out. */
const LEGACY_SESSION_COOKIE = 'pipit_session';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/**
 * The session cookie of a request, read from its `Cookie` header with the parser @fastify/cookie
 * wraps: `/execute` runs without that plugin's hooks (they cost it throughput), so every reader
 * goes through here and the plugin is left to set and clear the cookie.
 *
 * @example
 * sessionCookie(request); // 'k3Jx...' or undefined
 */
export function sessionCookie(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const cookies = parseCookie(header);
  return cookies[SESSION_COOKIE] ?? cookies[LEGACY_SESSION_COOKIE];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How long a verified Basic password is trusted on one connection before argon2 runs again. */
export const BASIC_CACHE_MS = 60_000;

// Per connection: the Authorization header last verified on it, and until when it holds. A client
// sending Basic on every request (as Platypush's do) costs one argon2 verification a minute per
// connection, not one per request; a different header on the same connection is verified anew.
const basicCache = new WeakMap<object, { header: string; principal: Principal; until: number }>();

function basicCredentials(req: FastifyRequest): { username: string; password: string } | undefined {
  const header = req.headers.authorization;
  if (!header || header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0)
    throw new PipitError(
      'UNAUTHORIZED',
      'the Basic credentials must be "user:password" in base64 (curl -u user:password does it)',
    );
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function basicPrincipal(
  service: Service,
  req: FastifyRequest,
  credentials: { username: string; password: string },
): Principal | Promise<Principal> {
  const header = req.headers.authorization!;
  const socket = req.raw.socket;
  const cached = basicCache.get(socket);
  if (cached && cached.header === header && cached.until > Date.now()) return cached.principal;
  // Throttled like logins: a wrong password counts against the name and the address.
  return service.auth
    .checkCredentials(credentials.username, credentials.password, req.ip)
    .then((user) => {
      const principal: Principal = { userId: user.id, username: user.username, via: 'basic' };
      basicCache.set(socket, { header, principal, until: Date.now() + BASIC_CACHE_MS });
      return principal;
    });
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The bearer token of a request: `Authorization: Bearer`, or Platypush's `X-Token` header, or (only
 * where `allowQuery`, i.e. WebSockets, which browsers cannot give headers) a `token` query parameter.
 * Undefined for Basic credentials, which {@link authenticate} checks apart.
 *
 * @example
 * bearerToken(request, false); // 'eyJhbGciOi...' or undefined
 */
export function bearerToken(req: FastifyRequest, allowQuery: boolean): string | undefined {
  const header = req.headers.authorization;
  if (header) {
    // By hand rather than a regex: this runs on every request, over a ~300-character JWT.
    const space = header.indexOf(' ');
    const scheme = space < 0 ? header : header.slice(0, space);
    const token = space < 0 ? '' : header.slice(space + 1).trim();
    const lower = scheme.toLowerCase();
    if (lower === 'basic') return undefined;
    if (lower === 'bearer' && !token)
      throw new PipitError(
        'UNAUTHORIZED',
        'the bearer token is empty: send "Authorization: Bearer <token>" with a token from POST /auth, Settings -> Tokens or "pipit token create"',
      );
    if (lower !== 'bearer' || !token || token.includes(' ')) {
      throw new PipitError(
        'UNAUTHORIZED',
        `the Authorization header must be "Bearer <token>" or "Basic <user:password in base64>", not "${scheme.slice(0, 20)} ..."`,
      );
    }
    return token;
  }
  const xToken = req.headers['x-token'];
  if (typeof xToken === 'string' && xToken) return xToken;
  if (allowQuery) {
    const query = req.query as Record<string, unknown> | undefined;
    if (query && typeof query.token === 'string' && query.token) return query.token;
  }
  return undefined;
}

/**
 * Authenticates a request by bearer token (`Authorization: Bearer`, `X-Token`), HTTP Basic
 * credentials (throttled like logins; verified once a minute per connection), or session cookie
 * (then state-changing methods need the session's `X-CSRF-Token`). NO_USER while nobody has registered; UNAUTHORIZED otherwise.
 * Synchronous when the token was verified before (the hot path): a promise only when it must be.
 *
 * @example
 * const principal = await authenticate(service, request, { allowQuery: false });
 */
export function authenticate(
  service: Service,
  req: FastifyRequest,
  opts: { allowQuery: boolean },
): Principal | Promise<Principal> {
  if (!service.auth.hasUsers()) {
    throw new PipitError(
      'NO_USER',
      'no user exists yet: open the web UI at / to register one, or run "pipit user add <name>"',
    );
  }
  const token = bearerToken(req, opts.allowQuery);
  if (token) return service.auth.cachedToken(token) ?? service.auth.verifyToken(token);
  const basic = basicCredentials(req);
  if (basic) return basicPrincipal(service, req, basic);
  const cookie = sessionCookie(req);
  if (cookie) {
    const principal = service.auth.sessionPrincipal(cookie);
    if (!principal)
      throw new PipitError('UNAUTHORIZED', 'your session has expired or ended: log in again');
    if (!SAFE_METHODS.has(req.method)) {
      const sent = req.headers['x-csrf-token'];
      if (typeof sent !== 'string' || !sameText(sent, principal.csrfToken!)) {
        throw new PipitError(
          'FORBIDDEN',
          'missing or wrong X-CSRF-Token header: a logged-in browser must send the token from GET /auth/status',
        );
      }
    }
    return principal;
  }
  throw new PipitError(
    'UNAUTHORIZED',
    'authentication required: send "Authorization: Bearer <token>" (get a token from POST /auth or Settings -> Tokens)',
  );
}

/**
 * A fastify preHandler that requires a logged-in caller and sets `request.principal`.
 *
 * @example
 * app.post('/execute', { preHandler: requireUser(service) }, handler);
 */
export function requireUser(service: Service) {
  return async (req: FastifyRequest): Promise<void> => {
    req.principal = await authenticate(service, req, { allowQuery: false });
  };
}
