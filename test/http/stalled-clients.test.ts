// Stalled clients are disconnected within the configured timeouts, and the connection cap holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpConfig } from '../../src/config/schema.ts';
import { listening } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';
import { parseAnswer, rawConnect } from '../helpers/raw-http.ts';

let s: Listening;
beforeAll(async () => {
  s = await listening({
    http: {
      headers_timeout_seconds: 0.3,
      request_timeout_seconds: 0.6,
      idle_timeout_seconds: 0.4,
      max_connections: 8,
    },
    yaml: 'event.hook.Sink:\n  if: {type: WebhookEvent, hook: sink}\n  then:\n    - return: ok\n',
  });
});
afterAll(() => s.close());

describe('stalled clients', () => {
  it('has production defaults within the documented bounds', () => {
    const d = HttpConfig.parse({});
    expect(d.headers_timeout_seconds).toBeGreaterThanOrEqual(10);
    expect(d.headers_timeout_seconds).toBeLessThanOrEqual(30);
    expect(d.request_timeout_seconds).toBeLessThanOrEqual(60);
    expect(d.max_connections).toBeGreaterThan(0);
    expect(() =>
      HttpConfig.parse({ headers_timeout_seconds: 30, request_timeout_seconds: 20 }),
    ).toThrow(/must not be longer than request_timeout_seconds/);
  });

  it('drops a bare connection that never sends a byte', async () => {
    const c = await rawConnect(s.http);
    const answer = parseAnswer(await c.closed);
    // Node answers a connection that sent nothing with nothing, or with our 408.
    expect([0, 408]).toContain(answer.status);
  });

  it('answers partial headers with a 408 response message, then disconnects', async () => {
    const c = await rawConnect(s.http, 'GET /auth/status HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const answer = parseAnswer(await c.closed);
    expect(answer.status).toBe(408);
    expect(answer.body?.type).toBe('response');
    expect(answer.body?.response?.errors[0]).toMatch(/not received in time/);
  });

  it('answers a partial body with 408, then disconnects', async () => {
    const c = await rawConnect(
      s.http,
      'POST /hook/sink HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly ten..',
    );
    const answer = parseAnswer(await c.closed);
    expect(answer.status).toBe(408);
    expect(answer.body?.response?.errors[0]).toMatch(/not received in time/);
  });

  it('closes a kept-alive connection that stays idle after its request', async () => {
    const c = await rawConnect(s.http, 'GET /auth/status HTTP/1.1\r\nHost: x\r\n\r\n');
    const raw = await c.closed;
    expect(parseAnswer(raw).status).toBe(200);
  });

  it('refuses connections past max_connections, and serves again once they are gone', async () => {
    const held = await Promise.all(Array.from({ length: 8 }, () => rawConnect(s.http)));
    const extra = await rawConnect(s.http, 'GET /auth/status HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(parseAnswer(await extra.closed).status).toBe(0);
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    const res = await fetch(`${s.http}/auth/status`);
    expect(res.status).toBe(200);
  });
});
