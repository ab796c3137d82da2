// On shutdown, /ws/requests work in flight gets the grace period: its responses are sent, then the
// socket closes with 1001; work still running after the grace gets an error response, not a reset.
// The port stops taking connections at once, not after the grace period, and an HTTP request in
// flight is answered with "Connection: close".
import { connect as tcpConnect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAll, connect } from './ws-client.ts';
import { listening } from '../helpers/listening.ts';
import { rawConnect } from '../helpers/raw-http.ts';

/** 'connected', or the error code of a TCP connection to an http:// base address. */
function tryConnect(base: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = tcpConnect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

afterEach(() => closeAll());

describe('shutdown with WebSocket requests in flight', () => {
  it('answers what finishes within the grace, errors what does not, then closes 1001', async () => {
    const s = await listening({ http: { shutdown_grace_seconds: 0.5 } });
    const c = await connect(`${s.ws}/ws/requests`, { headers: s.auth });
    c.send({ type: 'requests', action: 'utils.sleep', args: { seconds: 0.2 }, id: 'short' });
    c.send({ type: 'requests', action: 'utils.sleep', args: { seconds: 30 }, id: 'long' });
    // Both are running once a later echo has been answered (frames are handled in order).
    c.send({ type: 'requests', action: 'utils.echo', id: 'probe' });
    await c.next((f) => f.id === 'probe');
    const closing = s.close();
    const short = await c.next((f) => f.id === 'short');
    expect(short.response.errors).toEqual([]);
    const long = await c.next((f) => f.id === 'long');
    expect(long.response.errors[0]).toMatch(/shut down before this request finished/);
    expect((await c.closed).code).toBe(1001);
    await closing;
  });

  it('refuses new requests once draining, with an error response naming the shutdown', async () => {
    const s = await listening({ http: { shutdown_grace_seconds: 5 } });
    const c = await connect(`${s.ws}/ws/requests`, { headers: s.auth });
    c.send({ type: 'requests', action: 'utils.sleep', args: { seconds: 0.3 }, id: 'running' });
    c.send({ type: 'requests', action: 'utils.echo', id: 'probe' });
    await c.next((f) => f.id === 'probe');
    const closing = s.close();
    c.send({ type: 'requests', action: 'utils.echo', id: 'late' });
    const late = await c.next((f) => f.id === 'late');
    expect(late.response.errors[0]).toMatch(/shutting down/);
    expect((await c.next((f) => f.id === 'running')).response.errors).toEqual([]);
    expect((await c.closed).code).toBe(1001);
    await closing;
  });

  it('refuses new connections at once, while the requests in flight drain', async () => {
    const s = await listening({ http: { shutdown_grace_seconds: 5 } });
    const c = await connect(`${s.ws}/ws/requests`, { headers: s.auth });
    c.send({ type: 'requests', action: 'utils.sleep', args: { seconds: 2 }, id: 'running' });
    c.send({ type: 'requests', action: 'utils.echo', id: 'probe' });
    await c.next((f) => f.id === 'probe');
    expect(await tryConnect(s.http)).toBe('connected');
    const closing = s.close();
    await vi.waitFor(async () => expect(await tryConnect(s.http)).toBe('ECONNREFUSED'), {
      timeout: 1000,
    });
    expect(c.frames.some((f) => f.id === 'running')).toBe(false);
    expect((await c.next((f) => f.id === 'running')).response.errors).toEqual([]);
    expect((await c.closed).code).toBe(1001);
    await closing;
  });
});

describe('shutdown with HTTP requests in flight', () => {
  it('answers the request in flight, closing its connection after it; a request behind it gets none', async () => {
    const s = await listening({
      http: { shutdown_grace_seconds: 5 },
      yaml: 'procedure.slow:\n  - action: event.fire\n    args: {subtype: slow_started}\n  - action: utils.sleep\n    args: {seconds: 1}\n',
    });
    const started = new Promise<void>((resolve) =>
      s.t.service.events.bus.subscribe(({ event }) => {
        if (event.args.subtype === 'slow_started') resolve();
      }),
    );
    const body = JSON.stringify({ type: 'request', action: 'procedure.slow' });
    const c = await rawConnect(
      s.http,
      `POST /execute HTTP/1.1\r\nHost: x\r\nAuthorization: ${s.auth.authorization}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await started;
    const closing = s.close();
    // The next request on the same connection, pipelined behind the running one.
    c.socket.write('GET /auth/status HTTP/1.1\r\nHost: x\r\n\r\n');
    const raw = await c.closed;
    const statuses = [...raw.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200]);
    expect(raw.toLowerCase()).toContain('connection: close');
    expect(await tryConnect(s.http)).toBe('ECONNREFUSED');
    await closing;
  });
});
