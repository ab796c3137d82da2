// A TCP proxy in front of redis-server that can stop forwarding without closing anything: the
// instance behind it is cut off as by a dead network link, not by a refused connection.
import { once } from 'node:events';
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** A running proxy. */
export interface PausableProxy {
  /** `redis://127.0.0.1:<port>` of the proxy. */
  url: string;
  /** Stops forwarding in both directions (bytes wait in the sockets' buffers). */
  pause(): void;
  /** Forwards again, what waited first. */
  resume(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free loopback port that forwards every connection to 127.0.0.1:`port`.
 *
 * @example
 * const proxy = await startProxy(redis.port);
 * proxy.pause(); // the instances behind it hear nothing, and nothing of theirs arrives
 */
export async function startProxy(port: number): Promise<PausableProxy> {
  const sockets = new Set<Socket>();
  // Bytes read while paused, with the socket they are for, in order.
  let held: [Socket, Buffer][] = [];
  let paused = false;
  const forward = (from: Socket, to: Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (paused) held.push([to, chunk]);
      else to.write(chunk);
    });
  const server = createServer((client) => {
    const upstream = createConnection({ port, host: '127.0.0.1' });
    const drop = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', drop).on('close', drop);
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${own}`,
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const [to, chunk] of held) if (!to.destroyed) to.write(chunk);
      held = [];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
