import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ExpiryDays } from '../../auth/expiry.ts';
import { PipitError } from '../../core/errors.ts';
import type { Service } from '../../app/service.ts';
import { authenticate, SESSION_COOKIE, sessionCookie } from '../guard.ts';
import { parseBody } from '../../core/parse-body.ts';
import { refuseCrossSite, refuseUnknownHost } from './auth-site.ts';

const Credentials = z.object({
  username: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64),
  password: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(1024),
});

/** `POST /auth` body: Platypush-compatible, plus an optional token name. */
export const AuthBody = Credentials.extend({
  expiry_days: ExpiryDays,
  name: z.string().max(100).optional(),
});

function setSessionCookie(
  reply: FastifyReply,
  req: FastifyRequest,
  secret: string,
  expiresAt: number,
): void {
  reply.setCookie(SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    path: '/',
    expires: new Date(expiresAt * 1000),
  });
}

const isForm = (req: FastifyRequest) =>
  (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');

/**
 * Where a form login or registration goes next: the `redirect` query parameter when it stays on
 * this site (a path such as `/settings`, or an absolute URL of this very origin), else `/`. No
 * open redirect: `//evil.example`, `/\\evil.example`, other hosts and schemes all go to `/`.
 *
 * @example
 * safeRedirect(req); // '/execute?x=1' for POST /login?redirect=%2Fexecute%3Fx%3D1
 */
export function safeRedirect(req: FastifyRequest): string {
  const wanted = (req.query as Record<string, unknown> | undefined)?.redirect;
  if (typeof wanted !== 'string' || !wanted || wanted.length > 2048) return '/';
  const origin = `${req.protocol}://${req.host}`;
  let target: URL;
  try {
    target = new URL(wanted, `${origin}/`);
  } catch {
    return '/';
  }
  if (target.origin !== origin) return '/';
  return `${target.pathname}${target.search}${target.hash}`;
}

/**
 * Registration, login, logout, session status and `POST /auth` (API tokens).
 *
 * @example
 * curl -H 'Content-Type: application/json' -d '{"username":"ada","password":"..."}' http://localhost:8008/auth
 */
export function authRoutes(app: FastifyInstance, service: Service): void {
  const { auth } = service;
  const corsOrigins = service.config.http?.cors_origins ?? [];
  const allowedHosts = service.config.http?.allowed_hosts ?? [];

  app.get('/auth/status', async (req) => {
    const principal = auth.sessionPrincipal(sessionCookie(req));
    return {
      registration_open: !auth.hasUsers(),
      user: principal ? { username: principal.username } : null,
      csrf_token: principal?.csrfToken ?? null,
    };
  });

  // Platypush's clients post these as HTML forms and follow a 302 to `?redirect=`: the form
  // parser lives in this scope only, so no other route takes form bodies.
  void app.register(async (forms) => {
    forms.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    forms.post('/register', async (req, reply) => {
      refuseCrossSite(req, 'registration', corsOrigins);
      // Once a user exists registration is closed anyway (auth.register says so).
      if (!auth.hasUsers()) refuseUnknownHost(req, allowedHosts);
      const body = parseBody(
        Credentials.extend({ confirm_password: z.string().optional() }),
        req.body,
      );
      if (body.confirm_password !== undefined && body.confirm_password !== body.password) {
        throw new PipitError('BAD_REQUEST', 'the password and its confirmation differ');
      }
      const user = await auth.register(body.username, body.password);
      const session = auth.createSession(user);
      setSessionCookie(reply, req, session.secret, session.expiresAt);
      if (isForm(req)) return reply.redirect(safeRedirect(req), 302);
      return reply.code(201).send({ username: user.username, csrf_token: session.csrfToken });
    });

    forms.post('/login', async (req, reply) => {
      refuseCrossSite(req, 'login', corsOrigins);
      const body = parseBody(Credentials, req.body);
      const user = await auth.checkCredentials(body.username, body.password, req.ip);
      const session = auth.createSession(user);
      setSessionCookie(reply, req, session.secret, session.expiresAt);
      if (isForm(req)) return reply.redirect(safeRedirect(req), 302);
      return {
        username: user.username,
        csrf_token: session.csrfToken,
        expires_at: session.expiresAt,
      };
    });
  });

  app.post('/logout', async (req, reply) => {
    if (sessionCookie(req)) {
      const principal = await authenticate(service, req, { allowQuery: false });
      if (principal.sessionId) auth.endSession(principal.sessionId);
    }
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { success: true };
  });

  app.post('/auth', async (req) => {
    if (!auth.hasUsers())
      throw new PipitError('NO_USER', 'no user exists yet: register one in the web UI at / first');
    const body = parseBody(AuthBody, req.body);
    const user = await auth.checkCredentials(body.username, body.password, req.ip);
    const issued = await auth.issueToken(user, { name: body.name, expiryDays: body.expiry_days });
    return { token: issued.token, expires_at: issued.expires_at, id: issued.id, name: issued.name };
  });
}
