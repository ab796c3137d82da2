import type { Socket } from 'node:net';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { PipitError } from '../../core/errors.ts';
import { responseJson } from '../../core/response-json.ts';
import type { Service } from '../../service.ts';
import { httpStatus } from '../error-status.ts';
import { authenticate } from '../guard.ts';
import { API_HEADERS, setSecurityHeaders } from '../security-headers.ts';

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
 * cannot be JSON is the action's failure, answered like any other.
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
  app.post('/execute', { onRequest }, async (req, reply) => {
    setSecurityHeaders(req, reply, API_HEADERS);
    const signal = connectionSignal(req.raw.socket);
    const pending = service.execute.now(req.body, { target: 'http', signal });
    const { json, result } = responseJson(pending instanceof Promise ? await pending : pending);
    return reply
      .code(result.error ? httpStatus(result.error.code) : 200)
      .type('application/json; charset=utf-8')
      .send(json);
  });
}
