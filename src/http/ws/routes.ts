import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { PipitError } from '../../core/errors.ts';
import type { Service } from '../../app/service.ts';
import { redactUrl } from '../log.ts';
import { sendError } from '../reply.ts';
import { authenticateUpgradeHook } from './connection-auth.ts';
import { Connections } from './connections.ts';
import { eventsHandler } from './events.ts';
import { DEFAULT_MAX_IN_FLIGHT, requestsHandler } from './requests.ts';

/** Tunables of the WebSocket endpoints; the defaults suit production, tests shorten them. */
export interface WsOptions {
  /** Keep-alive ping period; a socket that has not answered the previous ping is terminated. */
  pingIntervalMs: number;
  /** Bytes queued for one socket before it is closed with 1013 as a slow consumer. */
  maxBufferedBytes: number;
  /** How long a slow consumer has to read up to its 1013 close frame before it is cut off. */
  slowConsumerGraceMs: number;
  /** Requests one `/ws/requests` connection may have running at once. */
  maxInFlight: number;
  /** Largest frame accepted (larger: `ws` closes with 1009); default `backend.http.max_body_bytes`. */
  maxPayload?: number;
  /** On shutdown, how long requests in flight get to send their responses before 1001. */
  shutdownGraceMs: number;
}

/** The production defaults of {@link WsOptions}. */
export const WS_DEFAULTS: WsOptions = {
  pingIntervalMs: 30_000,
  maxBufferedBytes: 4 * 1024 * 1024,
  slowConsumerGraceMs: 5_000,
  maxInFlight: DEFAULT_MAX_IN_FLIGHT,
  shutdownGraceMs: 10_000,
};

/**
 * Registers `/ws/events` and `/ws/requests` (and @fastify/websocket) on the HTTP app. A plain GET
 * on either path (no upgrade) is answered 400 with a response message saying how to connect.
 * Returns the connection registry (tests watch its size).
 *
 * @example
 * await wsRoutes(app, service);
 * await wsRoutes(app, service, { pingIntervalMs: 50 }); // tests
 */
export async function wsRoutes(
  app: FastifyInstance,
  service: Service,
  options: Partial<WsOptions> = {},
): Promise<Connections> {
  const graceSeconds = service.config.http?.shutdown_grace_seconds;
  const opts = {
    ...WS_DEFAULTS,
    ...(graceSeconds === undefined ? {} : { shutdownGraceMs: graceSeconds * 1000 }),
    ...options,
  };
  const log = service.log.child({ component: 'ws' });
  const connections = new Connections(service, { pingIntervalMs: opts.pingIntervalMs });
  // On close, requests in flight are answered, then clients learn 1001 (the plugin's own preClose,
  // replaced here, closes sockets at once and without a code). The drain is started, not awaited:
  // a preClose that waits keeps the port open (new clients would connect during the grace period),
  // and fastify's close gives up on a hook after its plugin timeout. The HTTP server's close waits
  // for these sockets anyway, and the onClose hook below for the drain.
  let draining: Promise<void> | undefined;
  const startDrain = () => (draining ??= connections.close(opts.shutdownGraceMs));
  app.addHook('onClose', async () => {
    await startDrain();
  });
  // The plugin adds an onRequest and an onResponse hook; in their own scope they run for these two
  // routes only, not for every /execute (where they cost measurable throughput).
  await app.register(async (scope) => {
    await scope.register(websocket, {
      preClose(done) {
        void startDrain();
        done();
      },
      options: {
        maxPayload: opts.maxPayload ?? service.config.http?.max_body_bytes ?? 1024 * 1024,
        perMessageDeflate: false,
      },
      // The plugin's default logs through fastify's request logger, which is off below "info".
      errorHandler: (err, socket, req) => {
        log.error({ err, url: redactUrl(req.url) }, 'WebSocket handler failed');
        socket.terminate();
      },
    });
    registerRoutes(scope);
  });
  return connections;

  function registerRoutes(scope: FastifyInstance): void {
    const limits = {
      maxBufferedBytes: opts.maxBufferedBytes,
      graceMs: opts.slowConsumerGraceMs,
    };
    const preValidation = authenticateUpgradeHook(service);
    const errors = { origin: service.config.deviceId, log };
    const notUpgraded = (path: string) =>
      new PipitError(
        'BAD_REQUEST',
        `${path} is a WebSocket endpoint: connect with a WebSocket client (ws://.../${path.slice(1)}) and a token`,
      );

    scope.route({
      method: 'GET',
      url: '/ws/events',
      preValidation,
      handler: (_req, reply) => sendError(reply, notUpgraded('/ws/events'), errors),
      wsHandler: eventsHandler(service, connections, limits),
    });
    scope.route({
      method: 'GET',
      url: '/ws/requests',
      preValidation,
      handler: (_req, reply) => sendError(reply, notUpgraded('/ws/requests'), errors),
      wsHandler: requestsHandler(service, connections, { limits, maxInFlight: opts.maxInFlight }),
    });
  }
}
