import type { WebSocket } from 'ws';
import type { Principal } from '../../auth/auth.ts';
import type { PipitError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { requireMetrics } from '../../metrics/metrics.ts';
import type { WsEndpoint, WsMetrics } from '../../metrics/ws-metrics.ts';
import type { Service } from '../../app/service.ts';
import { CredentialWatch } from './credential-watch.ts';
import { CloseCode } from './frames.ts';
import { KeepAlive } from './keepalive.ts';

/** How often, while sockets are open, to look whether another process changed credentials. */
const CHANGE_POLL_MS = 1000;

/** One authenticated WebSocket, as the registry sees it. */
export interface Connection {
  socket: WebSocket;
  /** The endpoint it connected to (a label of the connection gauge). */
  endpoint: WsEndpoint;
  principal: Principal;
  /** Resolves with an error once the credentials no longer hold (revoked, expired, logged out). */
  recheck(): Promise<PipitError | undefined>;
  /** Sends the endpoint's error frame and closes with 1008. */
  refuse(error: PipitError): void;
  /**
   * On shutdown: stop taking work and resolve once the work in flight is answered, or at the
   * deadline (epoch ms). Connections without it (event streams) close at once.
   */
  drain?(deadline: number): Promise<void>;
}

/**
 * Every open WebSocket of both endpoints: keeps them alive (ping/pong), closes them with 1008 as
 * soon as their credentials end (see {@link CredentialWatch}: revocation, logout, user removal,
 * expiry, a change by another process), and closes them all with 1001 on shutdown. Handlers ask
 * {@link Connections.admit} before acting on a frame.
 *
 * @example
 * const connections = new Connections(service, { pingIntervalMs: 30_000 });
 * const remove = connections.add({ socket, principal, recheck, refuse });
 * socket.on('close', remove);
 */
export class Connections {
  private readonly all = new Set<Connection>();
  private readonly watch: CredentialWatch<Connection>;
  private readonly keepAlive: KeepAlive;
  private readonly log: Logger;
  private readonly metrics: WsMetrics;
  private closing = false;

  constructor(service: Service, opts: { pingIntervalMs: number }) {
    this.log = service.log.child({ component: 'ws' });
    this.metrics = requireMetrics(service).ws;
    this.keepAlive = new KeepAlive(opts.pingIntervalMs, () => this.recheckAll());
    this.watch = new CredentialWatch(service.auth, service.store, { pollMs: CHANGE_POLL_MS });
  }

  /** Registers an open connection; returns the function that removes it (call it on close). */
  add(conn: Connection): () => void {
    // One upgraded after the shutdown began (on a connection opened before) is not let in.
    if (this.closing) {
      conn.socket.close(CloseCode.GOING_AWAY, 'server shutting down');
      return () => undefined;
    }
    this.all.add(conn);
    const unwatch = this.watch.add(conn);
    const untrack = this.keepAlive.track(conn.socket);
    this.metrics.connection(conn.endpoint, 1);
    return () => {
      if (!this.all.has(conn)) return;
      this.metrics.connection(conn.endpoint, -1);
      untrack();
      this.all.delete(conn);
      unwatch();
    };
  }

  /**
   * Whether to act on a frame that just arrived: false once the connection's credentials have
   * ended (it is then refused with 1008, and its later frames are ignored). Synchronous and cheap.
   */
  admit(conn: Connection): boolean {
    return this.watch.admit(conn);
  }

  /** Open connections (tests assert that closed ones are forgotten). */
  get size(): number {
    return this.all.size;
  }

  /** Token ids with open connections. */
  get tokens(): number {
    return this.watch.tokens;
  }

  /**
   * Stops the keep-alive and revocation listener, lets connections with work in flight drain for
   * up to `graceMs` (their responses are sent), and closes every socket with 1001.
   */
  async close(graceMs = 0): Promise<void> {
    this.closing = true;
    this.keepAlive.stop();
    this.watch.stop();
    const deadline = Date.now() + graceMs;
    await Promise.all(
      [...this.all].map((conn) => (conn.drain ? conn.drain(deadline) : Promise.resolve())),
    );
    for (const { socket } of this.all) {
      socket.close(CloseCode.GOING_AWAY, 'server shutting down');
      // A peer that does not answer the close frame must not hold the shutdown up.
      setTimeout(() => socket.terminate(), 1000).unref();
    }
  }

  private recheckAll(): void {
    for (const conn of this.all) {
      conn.recheck().then(
        (error) => {
          if (error) conn.refuse(error);
        },
        (err: unknown) => this.log.warn({ err }, 'could not re-check WebSocket credentials'),
      );
    }
  }
}
