import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { PipitError, toPipitError } from '../../core/errors.ts';
import { buildResponse, requestIdOf } from '../../core/messages.ts';
import type { Service } from '../../service.ts';
import type { Connections } from './connections.ts';
import { refuse, upgradeAuth } from './connection-auth.ts';
import { decodeFrame } from './frames.ts';
import { BoundedSender } from './send.ts';
import type { SendLimits } from './send.ts';

/** Requests one connection may have running at once, unless configured otherwise. */
export const DEFAULT_MAX_IN_FLIGHT = 32;

/**
 * The `/ws/requests` socket handler. Each text frame is a request message (`type` "requests" or
 * "request"), run through the same `execute()` as `POST /execute` and answered with the same
 * response message but `target: "ws"`, `id` echoed. Requests run concurrently and are answered in
 * completion order. At most `maxInFlight` run per connection: the excess is answered at once with
 * an error response naming the cap. Frames that are not JSON text get an error response too. When
 * the socket closes, the requests still running are aborted.
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

  return (socket: WebSocket, req: FastifyRequest): void => {
    const auth = upgradeAuth(req);
    const asErrorResponse = (message: string) => errorResponse(message.split('\n'));
    if (!auth.ok) return refuse(socket, auth.error, asErrorResponse);

    // One signal for the connection: its requests are only ever aborted together, when it closes.
    const connection = new AbortController();
    let inFlight = 0;
    let closed = false;
    const out = new BoundedSender(socket, opts.limits, () => {
      log.warn({ user: auth.principal.username }, 'slow /ws/requests consumer disconnected (1013)');
      cleanup();
    });
    const remove = connections.add({
      socket,
      principal: auth.principal,
      recheck: auth.recheck,
      refuse: (error) => refuse(socket, error, asErrorResponse),
    });
    const cleanup = () => {
      if (closed) return;
      closed = true;
      remove();
      connection.abort(new PipitError('UNAVAILABLE', 'the WebSocket closed before the answer'));
    };
    socket.on('close', cleanup);

    socket.on('message', (data, isBinary) => {
      let raw: unknown;
      try {
        raw = decodeFrame(data, isBinary);
      } catch (err) {
        out.send(asErrorResponse(toPipitError(err).message));
        return;
      }
      if (inFlight >= opts.maxInFlight) {
        out.send(errorResponse([capMessage], requestIdOf(raw)));
        return;
      }
      inFlight++;
      service.execute(raw, { target: 'ws', signal: connection.signal }).then(
        ({ message }) => {
          inFlight--;
          if (!closed) out.send(JSON.stringify(message));
        },
        (err: unknown) => {
          // execute() answers every failure as a response; this is a bug, still answered.
          inFlight--;
          log.error({ err }, 'execute() threw on /ws/requests');
          out.send(errorResponse(['internal error (see the service log)'], requestIdOf(raw)));
        },
      );
    });
  };
}
