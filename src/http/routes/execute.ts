import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { PipitError } from '../../core/errors.ts';
import { parseJsonLimited } from '../../core/json-limits.ts';
import { responseJson } from '../../core/response-json.ts';
import type { Service } from '../../app/service.ts';
import { httpStatus } from '../error-status.ts';
import { callerOf } from '../../auth/auth.ts';
import { authenticate } from '../guard.ts';
import { API_HEADERS, setSecurityHeaders } from '../security-headers.ts';
import { documentationOnly } from '../wire/compilers.ts';
import { executeSchema } from '../wire/execute.ts';

// A client gives up on a request by closing its connection, and requests on one connection come
// one after another: one signal per socket, made on its first request, aborts the action running
// when it closes (sleep, Spotify paging) — no controller and listener per request on the hot path.
const socketSignals = new WeakMap<Socket, AbortSignal>();

function connectionSignal(socket: Socket): AbortSignal {
  let signal = socketSignals.get(socket);
  if (!signal) {
    const controller = new AbortController();
    socket.once('close', () =>
      controller.abort(new PipitError('UNAVAILABLE', 'the client closed the connection')),
    );
    socketSignals.set(socket, (signal = controller.signal));
  }
  return signal;
}

/**
 * `POST /execute`: the JSON-RPC style entry point. 200 when the request was understood and run
 * (an action that failed is still 200, with `errors`); otherwise the status of the error code.
 *
 * The caller is authenticated in `onRequest`, before the body is read: an unauthenticated client
 * gets its 401 without the server parsing up to `max_body_bytes` for it or answering with parse
 * details. That one hook is the only one the busiest route runs (a chain of them cost more than the
 * work in them); it sets its security headers in the handler, and its failures reach the app's
 * error handler, which sets the same headers. The response is serialised here, so an output that
 * cannot be JSON is the action's failure, answered like any other. Its schema (wire/execute.ts)
 * documents it only: nothing is checked or serialised by fastify on this path.
 *
 * @example
 * curl -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
 *   -d '{"type":"request","action":"utils.echo","args":{"text":"hi"}}' http://localhost:8008/execute
 */
export function executeRoute(app: FastifyInstance, service: Service): void {
  const onRequest: onRequestHookHandler = (req, _reply, done) => {
    let principal: ReturnType<typeof authenticate>;
    try {
      principal = authenticate(service, req, { allowQuery: false });
    } catch (err) {
      return done(err as Error);
    }
    if (!(principal instanceof Promise)) {
      req.principal = principal;
      return done();
    }
    principal.then((p) => {
      req.principal = p;
      done();
    }, done);
  };
  // Platypush's clients (and its sample curl) send JSON without "Content-Type: application/json".
  // In this scope only, such bodies are kept as text and read as JSON in the handler — for token
  // and Basic callers only: a browser session must send application/json, which a cross-site form
  // cannot (CSRF).
  const asText = (_req: unknown, body: string | Buffer, done: (e: null, v: unknown) => void) =>
    done(null, new UntypedBody(String(body)));
  void app.register(async (scope) => {
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, asText);
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, asText);
    scope.addContentTypeParser('*', { parseAs: 'string' }, asText);
    scope.post('/execute', { schema: executeSchema, onRequest, ...documentationOnly }, handler);
  });

  async function handler(req: FastifyRequest, reply: FastifyReply) {
    setSecurityHeaders(req, reply, API_HEADERS);
    const signal = connectionSignal(req.raw.socket);
    const body = req.body instanceof UntypedBody ? untyped(req, req.body) : req.body;
    const pending = service.execute.now(body, {
      transport: 'http',
      signal,
      ...(req.principal ? { caller: callerOf(req.principal) } : {}),
    });
    const { json, result } = responseJson(pending instanceof Promise ? await pending : pending);
    return reply
      .code(result.error ? httpStatus(result.error.code) : 200)
      .type('application/json; charset=utf-8')
      .send(json);
  }
}

/** A body sent without "Content-Type: application/json", kept as text. */
class UntypedBody {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

function untyped(req: FastifyRequest, body: UntypedBody): unknown {
  if (req.principal?.via === 'session')
    throw new PipitError(
      'UNSUPPORTED_MEDIA_TYPE',
      'send the body as JSON with "Content-Type: application/json" (required for browser sessions)',
    );
  return parseJsonLimited(body.text, 'the request body');
}
