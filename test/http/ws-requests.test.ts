import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExecuteOptions } from '../../src/core/execute.ts';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';
import { bearer, closeAll, connect, listen, wsOnlyApp } from './ws-client.ts';
import type { Frame } from './ws-client.ts';

const CAP = 32;

describe('/ws/requests', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  const client = () => connect(`${base}/ws/requests`, bearer(token));
  const byId = (id: string) => (f: Frame) => f.id === id;

  beforeAll(async () => {
    t = await makeApp();
    token = await registerAndToken(t.app);
    base = await listen(t.app);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await closeAll();
  });
  afterAll(() => t.close());

  it('answers with the /execute response message, target "ws", id echoed', async () => {
    const c = await client();
    c.send({ type: 'requests', action: 'utils.echo', args: { text: 'hi' }, id: 'r1' });
    const reply = await c.next(byId('r1'));
    expect(reply).toMatchObject({
      id: 'r1',
      type: 'response',
      target: 'ws',
      origin: 'test-host',
      response: { output: { text: 'hi' }, errors: [] },
    });
    expect(typeof reply._timestamp).toBe('number');
    c.send({ type: 'request', action: 'utils.sleep', args: { seconds: 0 }, id: 7 });
    expect((await c.next(byId('7'))).response).toEqual({ output: { success: true }, errors: [] });
    // Failures are answered exactly as /execute answers them.
    c.send({ type: 'requests', action: 'nope.nothing', id: 'r3' });
    const failed = await c.next(byId('r3'));
    expect(failed.response.errors[0]).toMatch(/nope/);
    const http = await t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { authorization: `Bearer ${token}` },
      payload: { type: 'request', action: 'nope.nothing', id: 'r3' },
    });
    expect(failed.response).toEqual(http.json().response);
  });

  it('correlates 100 concurrent requests by id, answered in completion order', async () => {
    // 100 at once needs a cap above the default 32 (the cap itself is tested below).
    const wide = await wsOnlyApp(t.service, { maxInFlight: 100 });
    try {
      const c = await connect(`${wide.base}/ws/requests`, bearer(token));
      const order: string[] = [];
      c.ws.on('message', (data) => order.push(JSON.parse((data as Buffer).toString()).id));
      const ids = Array.from({ length: 100 }, (_, i) => `q${i}`);
      // Early ids sleep longest, so they finish last: correlation must not rely on order.
      for (const [i, id] of ids.entries()) {
        const action = i % 2 ? 'utils.echo' : 'utils.sleep';
        const args = i % 2 ? { i } : { seconds: (100 - i) / 2000 };
        c.send({ type: 'requests', action, args, id });
      }
      const replies = await Promise.all(ids.map((id) => c.next(byId(id))));
      for (const [i, reply] of replies.entries()) {
        expect(reply).toMatchObject({ id: `q${i}`, type: 'response', target: 'ws' });
        expect(reply.response).toEqual({ output: i % 2 ? { i } : { success: true }, errors: [] });
      }
      expect(c.frames).toEqual([]);
      expect(order).toHaveLength(100);
      expect(order).not.toEqual(ids);
      expect(order.indexOf('q1')).toBeLessThan(order.indexOf('q0'));
    } finally {
      await closeAll();
      await wide.app.close();
    }
  }, 10_000);

  it(`answers requests past the cap of ${CAP} in flight with an error naming the cap`, async () => {
    const c = await client();
    for (let i = 0; i < CAP; i++) {
      c.send({ type: 'requests', action: 'utils.sleep', args: { seconds: 0.3 }, id: `s${i}` });
    }
    c.send({ type: 'requests', action: 'utils.echo', id: 'over' });
    const over = await c.next(byId('over'));
    expect(over).toMatchObject({ type: 'response', target: 'ws', id: 'over' });
    expect(over.response.errors).toEqual([
      `too many requests in flight on this connection (cap ${CAP}): wait for responses before sending more`,
    ]);
    // The held requests still complete, and then there is room again.
    await c.next(byId('s0'));
    c.send({ type: 'requests', action: 'utils.echo', args: { ok: 1 }, id: 'after' });
    expect((await c.next(byId('after'))).response.output).toEqual({ ok: 1 });
  });

  it('answers malformed frames with an error response (id echoed when it can be read)', async () => {
    const c = await client();
    c.send('{oops');
    const bad = await c.next();
    expect(bad).toMatchObject({ type: 'response', target: 'ws' });
    expect(bad.response.errors[0]).toMatch(/^malformed JSON/);

    c.send({ type: 'event', action: 'utils.echo', id: 'm2' });
    expect((await c.next(byId('m2'))).response.errors[0]).toMatch(/"type" must be "request"/);
    c.send({ type: 'requests', id: 'm3' });
    expect((await c.next(byId('m3'))).response.errors[0]).toMatch(/"action"/);
    c.send('"just a string"');
    expect((await c.next()).response.errors[0]).toMatch(/must be a JSON object/);
    c.ws.send(Buffer.from('{}'), { binary: true });
    expect((await c.next()).response.errors).toEqual([
      'binary frames are not accepted: send JSON as a text frame',
    ]);
    c.send({ type: 'requests', action: 'utils.echo', id: 'still-open' });
    await c.next(byId('still-open'));
  });

  it('aborts the requests still running when the socket closes', async () => {
    const signals: AbortSignal[] = [];
    const execute = t.service.execute;
    const now = execute.now.bind(execute);
    vi.spyOn(execute, 'now').mockImplementation((raw: unknown, opts: ExecuteOptions) => {
      signals.push(opts.signal!);
      return now(raw, opts);
    });
    const c = await client();
    c.send({ type: 'requests', action: 'utils.sleep', args: { seconds: 60 }, id: 'long' });
    c.send({ type: 'requests', action: 'utils.echo', id: 'quick' });
    await c.next(byId('quick'));
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
    c.ws.close();
    await c.closed;
    await expect.poll(() => signals[0]!.aborted).toBe(true);
  });
});
