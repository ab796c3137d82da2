// One client address cannot hold every connection slot: past max_connections_per_address its new
// connections are closed at once while other addresses are served, and a kept-alive connection that
// never carried an authenticated request is closed after the short unauthenticated idle timeout.
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpConfig } from '../../src/config/schema.ts';
import { listening } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';
import { parseAnswer, rawConnect } from '../helpers/raw-http.ts';
import type { RawClient } from '../helpers/raw-http.ts';

const sockets: Socket[] = [];
let s: Listening | undefined;
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await s?.close();
  s = undefined;
});

/** A raw connection to the service from `from`, closed after the test. */
async function open(base: string, from = '127.0.0.1', text?: string): Promise<RawClient> {
  const client = await rawConnect(base, text, { from });
  sockets.push(client.socket);
  return client;
}

const statusRequest = 'GET /auth/status HTTP/1.1\r\nHost: x\r\n\r\n';

describe('connection slots per client address', () => {
  it('has defaults that leave room for other addresses and for benchmarks', () => {
    const d = HttpConfig.parse({});
    expect(d.max_connections_per_address).toBeGreaterThanOrEqual(64);
    expect(d.max_connections_per_address).toBeLessThan(d.max_connections);
    expect(d.unauthenticated_idle_timeout_seconds).toBeLessThan(d.idle_timeout_seconds);
  });

  it('closes connections past the cap from one address, and still serves another', async () => {
    // A short idle timeout: a connection let in past the cap would be answered and then closed.
    s = await listening({
      http: { max_connections: 64, max_connections_per_address: 4, idle_timeout_seconds: 1 },
    });
    const held = await Promise.all(Array.from({ length: 4 }, () => open(s!.http)));
    const extra = await open(s.http, '127.0.0.1', statusRequest);
    expect(parseAnswer(await extra.closed).status).toBe(0);

    const other = await open(s.http, '127.0.0.2', statusRequest);
    await expect.poll(() => parseAnswer(other.received()).status).toBe(200);

    // A slot given back is usable again by that address.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    const again = await open(s.http, '127.0.0.1', statusRequest);
    await expect.poll(() => parseAnswer(again.received()).status).toBe(200);
  });

  it('closes an idle connection that never authenticated sooner than an authenticated one', async () => {
    s = await listening({
      http: { idle_timeout_seconds: 3, unauthenticated_idle_timeout_seconds: 0.3 },
    });
    const body = JSON.stringify({ type: 'request', action: 'utils.echo' });
    const authed = await open(
      s.http,
      '127.0.0.1',
      `POST /execute HTTP/1.1\r\nHost: x\r\nAuthorization: ${s.auth.authorization}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const anonymous = await open(s.http, '127.0.0.1', statusRequest);
    await expect.poll(() => parseAnswer(authed.received()).status).toBe(200);
    await expect.poll(() => parseAnswer(anonymous.received()).status).toBe(200);
    const answered = Date.now();

    const closedAt = await anonymous.closedAt;
    expect(closedAt - answered).toBeLessThan(1500);
    // The authenticated one is still open well after that, and goes at idle_timeout_seconds.
    const state = await Promise.race([authed.closed.then(() => 'closed'), delay(1000, 'open')]);
    expect(state).toBe('open');
    expect((await authed.closedAt) - answered).toBeGreaterThan(2500);
  });
});
