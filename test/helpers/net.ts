// Loopback ports for tests that start a server or a child process of their own.
import { once } from 'node:events';
import { createConnection, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A free TCP port on 127.0.0.1 (closed again before it is returned), for a server whose address
 * must be known before it starts.
 *
 * @example
 * const port = await freePort(); const e2e = await startE2e(yaml, { port });
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** True when something accepts a TCP connection on 127.0.0.1:`port` right now. */
export async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
