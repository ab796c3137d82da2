import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/auth.ts';
import { PipitError } from '../core/errors.ts';
import type { ErrorCode } from '../core/errors.ts';
import type { Service } from '../app/service.ts';
import { jsonTextTooDeep, tooDeep } from '../core/json-limits.ts';
import { clientErrorHandler } from './client-errors.ts';
import { limitConnections, markAuthenticated } from './connection-limits.ts';
import { lazySchemaCompilers } from './lazy-compilers.ts';
import { swaggerOptions } from './openapi/document.ts';
import { accessLines, logSerializers } from './log.ts';
import { requireUser } from './guard.ts';
import { securityHeaders } from './security-headers.ts';
import { sendError } from './reply.ts';
import { authRoutes } from './routes/auth.ts';
import { executeRoute } from './routes/execute.ts';
import { hookRoutes } from './routes/hook.ts';
import { healthRoutes } from './routes/health.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { openApiRoute } from './routes/openapi.ts';
import { reloadRoute } from './routes/reload.ts';
import { tokenRoutes } from './routes/tokens.ts';
import { serveSpaFallback, uiRoutes, wantsSpaPage } from './routes/ui.ts';
import { wsRoutes } from './ws/routes.ts';
import { serializerCompiler, validatorCompiler } from './wire/compilers.ts';

const principalOf = Symbol('principal');
type WithPrincipal = FastifyRequest & { [principalOf]?: Principal | null };

// Fastify's own errors (body parsing, limits) in Pipit's terms, with messages that say the fix.
function fromFastifyError(err: FastifyError, maxBody: number): PipitError | undefined {
  const known: Record<string, [ErrorCode, string]> = {
    FST_ERR_CTP_BODY_TOO_LARGE: [
      'PAYLOAD_TOO_LARGE',
      `the request body is larger than ${maxBody} bytes (backend.http.max_body_bytes)`,
    ],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [
      'UNSUPPORTED_MEDIA_TYPE',
      'send the body as JSON with "Content-Type: application/json"',
    ],
    FST_ERR_CTP_EMPTY_JSON_BODY: ['BAD_REQUEST', 'the body is empty: send a JSON object'],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
      'BAD_REQUEST',
      'the Content-Length header does not match the body',
    ],
  };
  const hit = err.code ? known[err.code] : undefined;
  if (hit) return new PipitError(hit[0], hit[1], { cause: err });
  if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new PipitError('BAD_REQUEST', `malformed JSON: ${err.message}`, { cause: err });
  }
  if (err.statusCode === 429)
    return new PipitError('RATE_LIMITED', 'too many requests: slow down', { cause: err });
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new PipitError('BAD_REQUEST', err.message, { cause: err });
  }
  return undefined;
}

/**
 * Builds the HTTP backend (not listening yet): security headers, CORS (closed unless configured),
 * cookies, JSON error bodies for every failure, and the routes.
 *
 * `/execute` sits in the root scope with no hooks at all (see its route); everything else is in a
 * child scope that has the per-route security headers and @fastify/cookie.
 *
 * @example
 * const app = await buildHttpApp(service);
 * await app.inject({ method: 'GET', url: '/auth/status' });
 */
export async function buildHttpApp(service: Service): Promise<FastifyInstance> {
  const http = service.config.http;
  if (!http)
    throw new PipitError(
      'CONFIG_INVALID',
      'the HTTP backend is not enabled: add a "backend.http:" section',
    );
  const log = service.log.child({ component: 'http' });
  const errors = { origin: service.config.deviceId, log };
  // Access lines are at "debug" (accessLines). Below that fastify gets no logger at
  // all: with one, it makes a child logger and hangs "finish" listeners on every request (6% of a
  // `POST /execute`) only to time lines it will not write. Pipit's own errors are logged through
  // `log` either way.
  const accessLog: FastifyBaseLogger | undefined = service.log.isLevelEnabled('debug')
    ? service.log.child({ component: 'http' }, { serializers: logSerializers })
    : undefined;
  const headersMs = http.headers_timeout_seconds * 1000;
  const app = Fastify({
    ...(accessLog ? { loggerInstance: accessLog, disableRequestLogging: true } : {}),
    bodyLimit: http.max_body_bytes,
    trustProxy: http.trust_proxy,
    return503OnClosing: true,
    schemaController: lazySchemaCompilers(),
    // Long enough for hook names (128) so that our own validation answers, with its message.
    routerOptions: { maxParamLength: 256 },
    // Stalled clients (partial headers, partial bodies, bare connections) are dropped: Node checks
    // its connections on this period against the header and whole-request deadlines.
    http: {
      headersTimeout: headersMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, headersMs / 4)),
    },
    requestTimeout: http.request_timeout_seconds * 1000,
    keepAliveTimeout: http.idle_timeout_seconds * 1000,
    // What Node's parser refuses, and URLs the router cannot decode, answer in Pipit's format.
    clientErrorHandler: clientErrorHandler(service.config.deviceId, log),
    frameworkErrors: (err, _req, reply) => {
      void sendError(
        reply,
        new PipitError('BAD_REQUEST', `the URL cannot be decoded: ${err.message}`, { cause: err }),
        errors,
      );
    },
  });
  if (accessLog) {
    app.addHook('onRequest', accessLines.onRequest);
    app.addHook('onResponse', accessLines.onResponse);
  }
  app.server.maxConnections = http.max_connections;
  limitConnections(app.server, {
    perAddress: http.max_connections_per_address,
    unauthenticatedIdleMs: http.unauthenticated_idle_timeout_seconds * 1000,
    log,
  });
  // Setting a request's principal (wherever it is authenticated) also marks its connection as
  // authenticated: it keeps the normal keep-alive timeout (see limitConnections).
  app.decorateRequest('principal', {
    getter(this: WithPrincipal) {
      return this[principalOf] ?? null;
    },
    setter(this: WithPrincipal, value: Principal | null) {
      this[principalOf] = value;
      if (value) markAuthenticated(this.raw.socket);
    },
  });
  // The API takes JSON only: a text/plain body is refused with 415 and the fix, rather than parsed
  // into a string that fails later with a vaguer 400. Web hooks add their own parsers in their scope.
  app.removeContentTypeParser('text/plain');
  // Fastify's parser (which refuses __proto__ and constructor.prototype keys), behind a depth limit
  // checked on the text, before a deeply nested value is built.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonTextTooDeep(body as string)) return done(tooDeep('the request body'), undefined);
    void jsonParser(req, body as string, done);
  });

  // The routes' zod schemas (wire/*.ts) check their requests and write their answers, and describe
  // them in /openapi.json: @fastify/swagger only collects the routes here and builds the document
  // on its first request.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, swaggerOptions());

  if (http.cors_origins.length)
    await app.register(cors, { origin: http.cors_origins, credentials: true });

  app.setErrorHandler((err: FastifyError, _req, reply) => {
    const mapped =
      err instanceof PipitError ? err : (fromFastifyError(err, http.max_body_bytes) ?? err);
    return sendError(reply, mapped, errors);
  });
  executeRoute(app, service);
  await app.register(async (scope) => {
    securityHeaders(scope);
    // Sets and clears the session cookie; reading it is guard.sessionCookie()'s job everywhere.
    await scope.register(cookie, { hook: false });
    const hasUi = await uiRoutes(scope, log);
    // Set here, not on the root, so that its replies have the UI's sendUiFile (SPA pages).
    scope.setNotFoundHandler((req, reply) =>
      hasUi && wantsSpaPage(req)
        ? serveSpaFallback(reply)
        : sendError(
            reply,
            new PipitError('NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`),
            errors,
          ),
    );
    authRoutes(scope, service);
    tokenRoutes(scope, service);
    reloadRoute(scope, service);
    healthRoutes(scope, service);
    openApiRoute(scope, service);
    metricsRoutes(scope, service);
    await wsRoutes(scope, service);
    await hookRoutes(scope, service);
    for (const plugin of service.registry.plugins.values()) {
      await plugin.def.http?.(scope, {
        state: plugin.state,
        services: service.services,
        log: service.log.child({ plugin: plugin.def.name }),
        requireUser: requireUser(service),
      });
    }
  });
  return app;
}
