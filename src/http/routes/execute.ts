import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { PipitError } from '../../core/errors.ts';
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
 * The busiest route runs no fastify hooks: running a chain costs more than the work in it, so it
 * sets its security headers and authenticates in the handler (after the body is parsed, where a
 * preHandler would run). Its failures reach the app's error handler, which sets the same headers.
 *
 * @example
 * curl -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
 *   -d '{"type":"request","action":"utils.echo","args":{"text":"hi"}}' http://localhost:8008/execute
 */
export function executeRoute(app: FastifyInstance, service: Service): void {
  app.post('/execute', async (req, reply) => {
    const principal = authenticate(service, req, { allowQuery: false });
    req.principal = principal instanceof Promise ? await principal : principal;
    setSecurityHeaders(req, reply, API_HEADERS);
    const signal = connectionSignal(req.raw.socket);
    const { message, error } = await service.execute(req.body, { target: 'http', signal });
    return reply.code(error ? httpStatus(error.code) : 200).send(message);
  });
}
