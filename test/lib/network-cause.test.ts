import { createServer } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { networkCause } from '../../src/lib/network-cause.ts';

// A port on loopback that nothing listens on (taken, then closed).
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe('networkCause', () => {
  it("reads a refused fetch's system error: the message with the address, or the code alone", async () => {
    const port = await closedPort();
    const err: unknown = await fetch(`http://127.0.0.1:${port}/`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as Error).message).toBe('fetch failed');
    expect(networkCause(err)).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(networkCause(err, 'code')).toBe('ECONNREFUSED');
  });

  it("prefers undici's message to its own codes, and falls back to the error itself", () => {
    const closed = new TypeError('fetch failed', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    expect(networkCause(closed, 'code')).toBe('other side closed');
    expect(networkCause(new Error('no cause'))).toBe('no cause');
    expect(networkCause(new Error('x', { cause: { code: 'EPIPE' } }), 'message')).toBe('EPIPE');
    expect(networkCause('a string')).toBe('a string');
    expect(networkCause(null)).toBe('null');
  });
});
