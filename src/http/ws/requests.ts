import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { PipitError, toPipitError } from '../../core/errors.ts';
import type { ExecuteResult } from '../../core/execute.ts';
import { buildResponse, requestIdOf } from '../../core/messages.ts';
import { responseJson } from '../../core/response-json.ts';
import type { Service } from '../../app/service.ts';
import type { Connection, Connections } from './connections.ts';
import { callerOf } from '../../auth/auth.ts';
import { refuse, upgradeAuth } from './connection-auth.ts';
import { decodeFrame } from './frames.ts';
import { BoundedSender } from './send.ts';
import type { SendLimits } from './send.ts';

/** Requests one connection may have running at once, unless configured otherwise. */
export const DEFAULT_MAX_IN_FLIGHT = 32;

/** A request still running on a connection, answered at most once. */
interface Pending {
  id: string | undefined;
  answered: boolean;
}

/**
 * The `/ws/requests` socket handler. Each text frame is a request message (`type` "requests" or
 * "request"), run through the same `execute()` as `POST /execute` and answered with the same
 * response message but `target: "ws"`, `id` echoed. Requests run concurrently and are answered in
 * completion order; one that finishes at once is answered at once and never counts as in flight.
 * At most `maxInFlight` run per connection: the excess is answered at once with an error response
 * naming the cap. Frames that are not JSON text, or nest too deep, get an error response too.
 *
 * On shutdown the connection drains: new frames are refused, requests in flight get until the
 * grace period ends to finish and send their responses, the ones still running then get an error
 * response, and the socket closes with 1001. When the client closes the socket, its requests are
 * aborted.
 *
 * @example
 * app.route({ method: 'GET', url: '/ws/requests', wsHandler: requestsHandler(service, connections, { limits, maxInFlight: 32 }), ... });
 */
export function requestsHandler(
  service: Service,
  connections: Connections,
  opts: { limits: SendLimits; maxInFlight: number },
) {
  const origin = service.config.deviceId;
  const log = service.log.child({ component: 'ws', endpoint: '/ws/requests' });
  const errorResponse = (errors: string[], id?: string) =>
    JSON.stringify(buildResponse({ id, target: 'ws', origin, output: undefined, errors }));
  const capMessage = `too many requests in flight on this connection (cap ${opts.maxInFlight}): wait for responses before sending more`;
  const shuttingDown = 'the service is shutting down: reconnect and send the request again';

  return (socket: WebSocket, req: FastifyRequest): void => {
    const auth = upgradeAuth(req);
    const asErrorResponse = (message: string) => errorResponse(message.split('\n'));
    if (!auth.ok) return refuse(socket, auth.error, asErrorResponse);

    // One signal for the connection: its requests are only ever aborted together, when it closes.
    const connection = new AbortController();
    const pending = new Set<Pending>();
    let closed = false;
    let draining = false;
    let drained: (() => void) | undefined;
    const out = new BoundedSender(socket, opts.limits, () => {
      log.warn({ user: auth.principal.username }, 'slow /ws/requests consumer disconnected (1013)');
      cleanup();
    });
    const conn: Connection = {
      socket,
      endpoint: '/ws/requests',
      principal: auth.principal,
      recheck: auth.recheck,
      refuse: (error) => refuse(socket, error, asErrorResponse),
      drain: (deadline) => drain(deadline),
    };
    const remove = connections.add(conn);
    const cleanup = () => {
      if (closed) return;
      closed = true;
      remove();
      connection.abort(new PipitError('UNAVAILABLE', 'the WebSocket closed before the answer'));
      drained?.();
    };
    socket.on('close', cleanup);

    const answer = (result: ExecuteResult) => {
      if (!closed) out.send(responseJson(result).json);
    };
    const finish = (entry: Pending, result: ExecuteResult) => {
      pending.delete(entry);
      if (!entry.answered) {
        entry.answered = true;
        answer(result);
      }
      if (draining && pending.size === 0) drained?.();
    };

    // Resolves once every request in flight has been answered, or at the deadline; those still
    // running then are answered with an error and aborted.
    function drain(deadline: number): Promise<void> {
      draining = true;
      if (closed || pending.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(
          () => {
            for (const entry of pending) {
              entry.answered = true;
              out.send(
                errorResponse(
                  ['the service shut down before this request finished; it was aborted'],
                  entry.id,
                ),
              );
            }
            pending.clear();
            connection.abort(new PipitError('UNAVAILABLE', 'the service shut down'));
            resolve();
          },
          Math.max(0, deadline - Date.now()),
        );
        drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }

    socket.on('message', (data, isBinary) => {
      // Credentials that ended (logout, revocation, expiry...) run nothing more.
      if (!connections.admit(conn)) return;
      let raw: unknown;
      try {
        raw = decodeFrame(data, isBinary);
      } catch (err) {
        out.send(asErrorResponse(toPipitError(err).message));
        return;
      }
      if (draining) {
        out.send(errorResponse([shuttingDown], requestIdOf(raw)));
        return;
      }
      if (pending.size >= opts.maxInFlight) {
        out.send(errorResponse([capMessage], requestIdOf(raw)));
        return;
      }
      let result: ExecuteResult | Promise<ExecuteResult>;
      try {
        result = service.execute.now(raw, {
          transport: 'ws',
          signal: connection.signal,
          caller: callerOf(auth.principal),
        });
      } catch (err) {
        // execute() answers every failure as a response; this is a bug, still answered.
        log.error({ err }, 'execute() threw on /ws/requests');
        out.send(errorResponse(['internal error (see the service log)'], requestIdOf(raw)));
        return;
      }
      if (!(result instanceof Promise)) return answer(result);
      const entry: Pending = { id: requestIdOf(raw), answered: false };
      pending.add(entry);
      result.then(
        (done) => finish(entry, done),
        (err: unknown) => {
          log.error({ err }, 'execute() rejected on /ws/requests');
          finish(entry, {
            message: buildResponse({
              id: entry.id,
              target: 'ws',
              origin,
              output: undefined,
              errors: ['internal error (see the service log)'],
            }),
          });
        },
      );
    });
  };
}
