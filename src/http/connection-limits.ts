import type { Server, Socket } from 'node:net';
import type { Logger } from '../core/logger.ts';

/** Sockets that have carried an authenticated request (see {@link markAuthenticated}). */
const authenticated = new WeakSet<object>();

/** How often, at most, a refusal past the per-address cap is logged. */
const WARN_EVERY_MS = 10_000;

/**
 * Marks the connection of an authenticated request: from then on it keeps the normal keep-alive
 * idle timeout. Called whenever a request's `principal` is set.
 *
 * @example
 * markAuthenticated(request.raw.socket);
 */
export function markAuthenticated(socket: object): void {
  authenticated.add(socket);
}

// "::ffff:1.2.3.4" and "1.2.3.4" are one client.
function addressKey(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/**
 * Limits what one client address can hold of the server's connection slots:
 * - past `perAddress` open connections (HTTP and WebSocket) from one address, its new ones are
 *   closed at once, so one address cannot take all of `max_connections` and lock everyone out;
 * - a kept-alive connection that has carried no authenticated request is closed after
 *   `unauthenticatedIdleMs` idle (instead of the server's keep-alive timeout), so slots held by
 *   anonymous idle connections come back quickly.
 *
 * The idle timeout goes through the socket's own `setTimeout`, which Node calls with the
 * keep-alive timeout after each response and with 0 when the next request starts: it is shortened
 * there, per socket, at no cost to requests.
 *
 * @example
 * limitConnections(app.server, { perAddress: 256, unauthenticatedIdleMs: 5000, log });
 */
export function limitConnections(
  server: Server,
  opts: { perAddress: number; unauthenticatedIdleMs: number; log: Logger },
): void {
  const open = new Map<string, number>();
  let warnedAt = 0;
  server.on('connection', (socket: Socket) => {
    // Undefined once the peer is already gone: nothing to count.
    if (socket.remoteAddress === undefined) return;
    const key = addressKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= opts.perAddress) {
      socket.destroy();
      const now = Date.now();
      if (now - warnedAt >= WARN_EVERY_MS) {
        warnedAt = now;
        opts.log.warn(
          { address: key, open: count },
          `refused a connection from ${key}: it has ${count} open (backend.http.max_connections_per_address)`,
        );
      }
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
    const setTimeout = socket.setTimeout.bind(socket);
    socket.setTimeout = (ms: number, callback?: () => void) =>
      setTimeout(
        ms > 0 && !authenticated.has(socket) ? Math.min(ms, opts.unauthenticatedIdleMs) : ms,
        callback,
      );
  });
}
