import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import type { Socket } from 'node:net';

/**
 * A WebSocket client for load generation, as lean as it can be so that the generator is not the
 * bottleneck (the `ws` client, with its per-frame events and JSON parsing, costs about as much CPU
 * as the server it loads): frames are sent pre-encoded with an all-zero mask (valid, and the
 * payload needs no XOR), and incoming frames are only delimited, never decoded, unless the caller
 * asks for their payload. Text frames only; pings from the server are ignored (runs are short).
 */
export class LeanSocket {
  readonly socket: Socket;
  private pending: Buffer = Buffer.alloc(0);
  /** Called once per complete incoming data frame; `payload` only when `wantPayload`. */
  onFrame: (receivedAt: number, payload: Buffer | undefined) => void = () => {};
  wantPayload = false;

  private constructor(socket: Socket, rest: Buffer) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    if (rest.length) queueMicrotask(() => this.read(rest));
  }

  /**
   * Opens a WebSocket to `url` (ws://host:port/path), with extra handshake headers.
   *
   * @example
   * const ws = await LeanSocket.open('ws://127.0.0.1:8008/ws/requests', { authorization: `Bearer ${token}` });
   * ws.onFrame = () => ws.send(frame);
   * ws.send(LeanSocket.frame('{"type":"request","action":"utils.echo"}'));
   */
  static async open(url: string, headers: Record<string, string> = {}): Promise<LeanSocket> {
    const u = new URL(url);
    const socket = connect({ host: u.hostname, port: Number(u.port), noDelay: true });
    await once(socket, 'connect');
    const lines = [
      `GET ${u.pathname}${u.search} HTTP/1.1`,
      `Host: ${u.host}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    let head = Buffer.alloc(0);
    for (;;) {
      const [chunk] = (await once(socket, 'data')) as [Buffer];
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) continue;
      const status = head.subarray(0, head.indexOf('\r\n')).toString();
      if (!status.includes(' 101 ')) throw new Error(`${url}: ${status}`);
      socket.pause();
      const lean = new LeanSocket(socket, head.subarray(end + 4));
      socket.resume();
      return lean;
    }
  }

  /**
   * Encodes a client text frame once (masked with zeros), to send as often as needed.
   *
   * @example
   * const frame = LeanSocket.frame(JSON.stringify({ type: 'request', action: 'utils.echo' }));
   */
  static frame(text: string): Buffer {
    const payload = Buffer.from(text);
    const n = payload.length;
    const head =
      n < 126
        ? Buffer.from([0x81, 0x80 | n])
        : n < 65536
          ? Buffer.from([0x81, 0x80 | 126, n >> 8, n & 0xff])
          : (() => {
              const h = Buffer.alloc(10);
              h[0] = 0x81;
              h[1] = 0x80 | 127;
              h.writeBigUInt64BE(BigInt(n), 2);
              return h;
            })();
    return Buffer.concat([head, Buffer.alloc(4), payload]);
  }

  send(frame: Buffer): void {
    this.socket.write(frame);
  }

  close(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    const now = performance.now();
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    for (;;) {
      if (buf.length - at < 2) break;
      const opcode = buf[at]! & 0x0f;
      let len = buf[at + 1]! & 0x7f;
      let start = at + 2;
      if (len === 126) {
        if (buf.length - at < 4) break;
        len = buf.readUInt16BE(at + 2);
        start = at + 4;
      } else if (len === 127) {
        if (buf.length - at < 10) break;
        len = Number(buf.readBigUInt64BE(at + 2));
        start = at + 10;
      }
      if (buf.length < start + len) break;
      if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0)
        this.onFrame(now, this.wantPayload ? buf.subarray(start, start + len) : undefined);
      at = start + len;
    }
    buf = buf.subarray(at);
    this.pending = buf.length ? Buffer.from(buf) : Buffer.alloc(0);
  }
}
