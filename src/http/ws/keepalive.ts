import type { WebSocket } from 'ws';

/**
 * Ping/pong keep-alive for a set of sockets: every `intervalMs` each socket is pinged, and one
 * that has not answered the previous ping by then is terminated (a dead peer or a half-open TCP
 * connection would otherwise hold its subscription and buffers forever). `onTick` runs on the same
 * beat for other periodic checks.
 *
 * @example
 * const keepAlive = new KeepAlive(30_000, () => recheckCredentials());
 * const untrack = keepAlive.track(socket);
 * socket.on('close', untrack);
 */
export class KeepAlive {
  private readonly alive = new Map<WebSocket, boolean>();
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs: number, onTick: () => void = () => {}) {
    this.timer = setInterval(() => {
      this.beat();
      onTick();
    }, intervalMs);
    this.timer.unref();
  }

  /** Starts watching a socket; returns the function that stops it. */
  track(socket: WebSocket): () => void {
    this.alive.set(socket, true);
    const onPong = () => {
      if (this.alive.has(socket)) this.alive.set(socket, true);
    };
    socket.on('pong', onPong);
    return () => {
      this.alive.delete(socket);
      socket.off('pong', onPong);
    };
  }

  get size(): number {
    return this.alive.size;
  }

  stop(): void {
    clearInterval(this.timer);
    this.alive.clear();
  }

  private beat(): void {
    for (const [socket, alive] of this.alive) {
      if (!alive) {
        this.alive.delete(socket);
        socket.terminate();
        continue;
      }
      this.alive.set(socket, false);
      if (socket.readyState === socket.OPEN) socket.ping();
    }
  }
}
