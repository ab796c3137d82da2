import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PipitError } from '../../core/errors.ts';
import type { Service } from '../../app/service.ts';
import { authenticate, SESSION_COOKIE, sessionCookie } from '../guard.ts';
import { validating } from '../wire/compilers.ts';
import { authSchemas } from '../wire/auth.ts';
import { refuseCrossSite, refuseUnknownHost } from './auth-site.ts';

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
export function authRoutes(fastify: FastifyInstance, service: Service): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth } = service;
  const corsOrigins = service.config.http?.cors_origins ?? [];
  const allowedHosts = service.config.http?.allowed_hosts ?? [];

  app.get('/auth/status', { schema: authSchemas.status }, async (req) => {
    const principal = auth.sessionPrincipal(sessionCookie(req));
    return {
      registration_open: !auth.hasUsers(),
      user: principal ? { username: principal.username } : null,
      csrf_token: principal?.csrfToken ?? null,
    };
  });

  // Platypush's clients post these as HTML forms and follow a 302 to `?redirect=`: the form
  // parser lives in this scope only, so no other route takes form bodies. The site checks come
  // before the body is looked at (preValidation); `redirect` is not checked, only documented (one
  // that leaves the site goes to "/").
  void app.register(async (scope) => {
    const forms = scope.withTypeProvider<ZodTypeProvider>();
    forms.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    const registerSite = async (req: FastifyRequest) => {
      refuseCrossSite(req, 'registration', corsOrigins);
      // Once a user exists registration is closed anyway (auth.register says so).
      if (!auth.hasUsers()) refuseUnknownHost(req, allowedHosts);
    };
    forms.post(
      '/register',
      { schema: authSchemas.register, preValidation: registerSite, ...validating('body') },
      async (req, reply) => {
        const body = req.body;
        if (body.confirm_password !== undefined && body.confirm_password !== body.password) {
          throw new PipitError('BAD_REQUEST', 'the password and its confirmation differ');
        }
        const user = await auth.register(body.username, body.password);
        const session = auth.createSession(user);
        setSessionCookie(reply, req, session.secret, session.expiresAt);
        if (isForm(req)) return reply.redirect(safeRedirect(req), 302);
        return reply.code(201).send({ username: user.username, csrf_token: session.csrfToken });
      },
    );

    const loginSite = async (req: FastifyRequest) => refuseCrossSite(req, 'login', corsOrigins);
    forms.post(
      '/login',
      { schema: authSchemas.login, preValidation: loginSite, ...validating('body') },
      async (req, reply) => {
        const body = req.body;
        const user = await auth.checkCredentials(body.username, body.password, req.ip);
        const session = auth.createSession(user);
        setSessionCookie(reply, req, session.secret, session.expiresAt);
        if (isForm(req)) return reply.redirect(safeRedirect(req), 302);
        return reply.send({
          username: user.username,
          csrf_token: session.csrfToken,
          expires_at: session.expiresAt,
        });
      },
    );
  });

  app.post('/logout', { schema: authSchemas.logout }, async (req, reply) => {
    if (sessionCookie(req)) {
      const principal = await authenticate(service, req, { allowQuery: false });
      if (principal.sessionId) auth.endSession(principal.sessionId);
    }
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { success: true as const };
  });

  // No user yet: 412 before the body is looked at.
  const someUser = async () => {
    if (!auth.hasUsers())
      throw new PipitError('NO_USER', 'no user exists yet: register one in the web UI at / first');
  };
  app.post('/auth', { schema: authSchemas.token, preValidation: someUser }, async (req) => {
    const body = req.body;
    const user = await auth.checkCredentials(body.username, body.password, req.ip);
    const issued = await auth.issueToken(user, { name: body.name, expiryDays: body.expiry_days });
    return { token: issued.token, expires_at: issued.expires_at, id: issued.id, name: issued.name };
  });
}
