// A small `ws` client for the WebSocket tests: frames are collected as they arrive, and tests
// await the frame they want (no sleeps).
import { once } from 'node:events';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import type { ClientOptions } from 'ws';
import type { LocalBus } from '../../src/events/bus.ts';
import type { Connections } from '../../src/http/ws/connections.ts';
import { wsRoutes } from '../../src/http/ws/routes.ts';
import type { WsOptions } from '../../src/http/ws/routes.ts';
import type { Service } from '../../src/app/service.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Frame = any;

/** A connected test client. */
export interface Client {
  ws: WebSocket;
  frames: Frame[];
  /** Resolves with the first frame (already received or to come) matching `match`. */
  next(match?: (frame: Frame) => boolean): Promise<Frame>;
  send(value: unknown): void;
  /** Resolves when the server closes the socket. */
  closed: Promise<{ code: number; reason: string }>;
}

const open = new Set<WebSocket>();

/**
 * Opens a client and resolves once it is open (a refused connection still opens, then receives an
 * error frame and a 1008 close).
 *
 * @example
 * const c = await connect(`${base}/ws/events`, { headers: { authorization: `Bearer ${token}` } });
 */
export async function connect(url: string, opts: ClientOptions = {}): Promise<Client> {
  const ws = new WebSocket(url, opts);
  open.add(ws);
  const frames: Frame[] = [];
  let waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  ws.on('message', (data, isBinary) => {
    const frame: Frame = isBinary ? data : JSON.parse((data as Buffer).toString());
    frames.push(frame);
    waiters = waiters.filter((w) => (w.match(frame) ? (w.resolve(frame), false) : true));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => {
      open.delete(ws);
      resolve({ code, reason: reason.toString() });
    }),
  );
  await once(ws, 'open');
  return {
    ws,
    frames,
    closed,
    send: (value) => ws.send(typeof value === 'string' ? value : JSON.stringify(value)),
    next(match = () => true) {
      const seen = frames.find(match);
      if (seen !== undefined) {
        frames.splice(frames.indexOf(seen), 1);
        return Promise.resolve(seen);
      }
      return new Promise((resolve) =>
        waiters.push({
          match,
          resolve: (f: Frame) => {
            frames.splice(frames.indexOf(f), 1);
            resolve(f);
          },
        }),
      );
    },
  };
}

/** Closes every client still open (afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all(
    [...open].map(async (ws) => {
      if (ws.readyState === ws.CLOSED) return;
      const done = once(ws, 'close');
      ws.terminate();
      await done;
    }),
  );
  open.clear();
}

/** The base ws:// address of a listening app. */
export async function listen(app: FastifyInstance): Promise<string> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return url.replace(/^http/, 'ws');
}

/** Subscribers on the service's in-process bus (the hooks dispatcher is one of them). */
export function subscribers(service: Service): number {
  return (service.events.bus as LocalBus).size;
}

/** A bearer header. */
export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/**
 * A second, minimal HTTP app on an existing service with only the WebSocket routes, for options
 * that the full app keeps at their defaults (short ping interval, a higher in-flight cap).
 *
 * @example
 * const extra = await wsOnlyApp(t.service, { pingIntervalMs: 50 });
 */
export async function wsOnlyApp(
  service: Service,
  options: Partial<WsOptions>,
): Promise<{ base: string; app: FastifyInstance; connections: Connections }> {
  const app = Fastify();
  const connections = await wsRoutes(app, service, options);
  return { base: await listen(app), app, connections };
}
