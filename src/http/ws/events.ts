import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { PipitError, toPipitError } from '../../core/errors.ts';
import { maskSecrets } from '../../core/redact.ts';
import type { Delivery } from '../../events/bus.ts';
import { RECENT_EVENTS } from '../../events/recent.ts';
import { makeEvent } from '../../events/event.ts';
import type { IncomingEvent } from '../../events/event.ts';
import { CoreKinds, presentKind } from '../../events/kinds.ts';
import { requireMetrics } from '../../metrics/metrics.ts';
import type { Service } from '../../app/service.ts';
import type { Connection, Connections } from './connections.ts';
import { refuse, upgradeAuth } from './connection-auth.ts';
import { decodeFrame, errorFrame, EventsInbound, parseFrame } from './frames.ts';
import { BoundedSender } from './send.ts';
import type { SendLimits } from './send.ts';

// One UTF-8 encoding per event, shared by every socket it goes to (the bus hands all subscribers
// the same Delivery, whose JSON is itself serialised once).
const encoded = new WeakMap<Delivery, Buffer>();
function bytesOf(delivery: Delivery, namespace: 'pipit' | 'platypush'): Buffer {
  let bytes = encoded.get(delivery);
  if (!bytes) encoded.set(delivery, (bytes = Buffer.from(shownJson(delivery, namespace))));
  return bytes;
}

// Subscribers see every event with its credentials masked (a client's CustomEvent, a hook's, a
// RunFailedEvent quoting an error page): secret names and secret-shaped strings, as the run
// history masks them. Hooks get the event as published. Most events have nothing to mask and keep
// the JSON the bus made.
function shownJson(delivery: Delivery, namespace: 'pipit' | 'platypush'): string {
  const { event } = delivery;
  const masked = maskSecrets(event);
  if (masked === event) return delivery.json();
  return JSON.stringify(
    namespace === 'pipit'
      ? masked
      : { ...masked, args: { ...masked.args, type: presentKind(event.args.type, namespace) } },
  );
}

// `?history=N`: a whole number, capped; anything else (absent, negative, text) is none.
function historyOf(req: FastifyRequest): number {
  const raw = (req.query as Record<string, unknown> | undefined)?.history;
  const n = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  return Math.min(n, RECENT_EVENTS);
}

/** Resolves the kinds of a subscribe frame; BAD_REQUEST names the unknown one. */
function resolveKinds(service: Service, names: string[]): string[] {
  return [...new Set(names.map((name) => service.events.kinds.resolve(name)))];
}

function toEvent(service: Service, frame: IncomingEvent) {
  const kind = service.events.kinds.resolve(frame.args.type);
  if (kind === CoreKinds.WebhookEvent) {
    throw new PipitError(
      'BAD_REQUEST',
      'WebhookEvent is raised by calls to /hook/<name> only; publish a CustomEvent with a subtype instead',
    );
  }
  const { type: _kind, ...fields } = frame.args;
  return makeEvent(kind, fields, service.config.deviceId, frame.id);
}

/**
 * The `/ws/events` socket handler. The client receives every event (or those of the kinds it
 * subscribed to) as an event message; it may publish an event message (published on the bus:
 * hooks run, and every client receives it, the sender included) or send
 * `{"type": "subscribe", "events": [kinds]}` (answered `{"type": "subscribed", "events": [...]}`).
 * Every frame it cannot use is answered `{"type": "error", "errors": ["..."]}`. With
 * `?history=N` (at most 50) it first receives the newest N events published before it connected,
 * oldest first, as they were sent then (the web UI's Events page); without it, live events only,
 * as Platypush clients expect.
 *
 * @example
 * app.route({ method: 'GET', url: '/ws/events', wsHandler: eventsHandler(service, connections, limits), ... });
 */
export function eventsHandler(service: Service, connections: Connections, limits: SendLimits) {
  const log = service.log.child({ component: 'ws', endpoint: '/ws/events' });
  const asErrorFrame = (message: string) => errorFrame(message.split('\n'));
  const metrics = requireMetrics(service).ws;
  const namespace = service.config.eventNamespace;

  return (socket: WebSocket, req: FastifyRequest): void => {
    const auth = upgradeAuth(req);
    if (!auth.ok) return refuse(socket, auth.error, asErrorFrame);
    const history = historyOf(req);

    let filter: Set<string> | null = null;
    let closed = false;
    const out = new BoundedSender(socket, limits, () => {
      log.warn({ user: auth.principal.username }, 'slow /ws/events consumer disconnected (1013)');
      cleanup();
    });
    for (const delivery of service.events.recent.last(history))
      out.send(bytesOf(delivery, namespace));
    const unsubscribe = service.events.subscribe((delivery) => {
      if (filter && !filter.has(delivery.event.args.type)) return;
      if (out.send(bytesOf(delivery, namespace))) metrics.eventDelivered();
    });
    const conn: Connection = {
      socket,
      endpoint: '/ws/events',
      principal: auth.principal,
      recheck: auth.recheck,
      refuse: (error) => refuse(socket, error, asErrorFrame),
    };
    const remove = connections.add(conn);
    const cleanup = () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      remove();
    };
    socket.on('close', cleanup);

    socket.on('message', (data, isBinary) => {
      // Credentials that ended (logout, revocation, expiry...) publish nothing more.
      if (!connections.admit(conn)) return;
      try {
        const frame = parseFrame(EventsInbound, decodeFrame(data, isBinary));
        if (frame.type === 'subscribe') {
          const kinds = resolveKinds(service, frame.events);
          filter = kinds.length ? new Set(kinds) : null;
          out.send(JSON.stringify({ type: 'subscribed', events: kinds }));
          return;
        }
        service.events.publish(toEvent(service, frame)).catch((err: unknown) => {
          log.warn({ err }, 'could not publish an event from a WebSocket client');
          out.send(asErrorFrame(toPipitError(err).message));
        });
      } catch (err) {
        const error = toPipitError(err);
        log.debug({ code: error.code }, `refused a /ws/events frame: ${error.message}`);
        out.send(asErrorFrame(error.message));
      }
    });
  };
}
