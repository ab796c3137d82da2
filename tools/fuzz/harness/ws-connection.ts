// A WebSocket client whose frames are queued and awaited one at a time.
import { WebSocket } from 'ws';
import { FRAME_TIMEOUT_MS } from './limits.ts';

type Received =
  | { frame: Buffer; binary: boolean }
  | { closed: { code: number; reason: string } }
  | { timeout: true };

/** A client socket whose frames are queued and awaited one at a time. */
export class WsConnection {
  readonly ws: WebSocket;
  readonly queue: Array<{ frame: Buffer; binary: boolean }> = [];
  closed: { code: number; reason: string } | undefined;
  private waiter: ((r: Received) => void) | undefined;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data: Buffer, binary) => {
      const frame = { frame: data, binary };
      if (this.waiter) this.take()(frame);
      else this.queue.push(frame);
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      if (this.waiter) this.take()({ closed: this.closed });
    });
    ws.on('error', () => undefined);
  }

  private take(): (r: Received) => void {
    const w = this.waiter!;
    this.waiter = undefined;
    return w;
  }

  static open(url: string, headers: Record<string, string>): Promise<WsConnection | Error> {
    const ws = new WebSocket(url, { headers, maxPayload: 64 * 1024 * 1024 });
    const conn = new WsConnection(ws);
    return new Promise((resolve) => {
      ws.once('open', () => resolve(conn));
      ws.once('unexpected-response', (_req, res) =>
        resolve(new Error(`the upgrade was answered ${res.statusCode}`)),
      );
      ws.once('error', (err) => resolve(err));
    });
  }

  /** The next frame (queued or to come), the close, or a timeout. */
  next(timeoutMs = FRAME_TIMEOUT_MS): Promise<Received> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.closed) return Promise.resolve({ closed: this.closed });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve({ timeout: true });
      }, timeoutMs);
      this.waiter = (r) => {
        clearTimeout(timer);
        resolve(r);
      };
    });
  }

  send(data: string | Uint8Array, binary: boolean): void {
    this.ws.send(data, { binary });
  }

  terminate(): void {
    this.ws.terminate();
  }
}
