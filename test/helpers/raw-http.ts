// Raw TCP clients for what fetch() will not send: stalled, malformed and oversized requests.
import { connect } from 'node:net';
import type { Socket } from 'node:net';

/** A raw connection: everything the server wrote, and when it closed. */
export interface RawClient {
  socket: Socket;
  /** What arrived so far. */
  received(): string;
  /** Resolves with all the bytes received once the server closes the connection. */
  closed: Promise<string>;
  /** Resolves with Date.now() at the close. */
  closedAt: Promise<number>;
}

/**
 * Opens a TCP connection to an http:// base address, from the local address `from` (any 127.x is
 * this machine's), and writes `text` (if any).
 *
 * @example
 * const c = await rawConnect(base, 'GET / HTTP/1.1\r\nHost: x\r\n');
 * const answer = await c.closed;
 */
export async function rawConnect(
  base: string,
  text?: string,
  opts: { from?: string } = {},
): Promise<RawClient> {
  const { hostname, port } = new URL(base);
  const socket = connect({
    port: Number(port),
    host: hostname,
    ...(opts.from ? { localAddress: opts.from } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closedAt = new Promise<number>((resolve) =>
    socket.once('close', () => resolve(Date.now())),
  );
  if (text !== undefined) socket.write(Buffer.from(text, 'latin1'));
  return { socket, received: () => received, closed: closedAt.then(() => received), closedAt };
}

/** Status and parsed JSON body of a raw HTTP/1.1 answer. */
export function parseAnswer(raw: string): {
  status: number;
  headers: string;
  body: { type?: string; response?: { errors: string[] } } | undefined;
} {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const text = rest.join('\r\n\r\n');
  let body;
  try {
    body = text
      ? (JSON.parse(text) as { type?: string; response?: { errors: string[] } })
      : undefined;
  } catch {
    body = undefined;
  }
  return { status, headers: head.toLowerCase(), body };
}
