import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';
import { bearer, closeAll, connect, listen, subscribers } from './ws-client.ts';
import type { Frame } from './ws-client.ts';

const CUSTOM = 'pipit.message.event.custom.CustomEvent';
const HOOK_YAML = `event.hook.Door:
  if: {type: CustomEvent, subtype: door}
  then:
    - action: variable.set
      args: {seen: yes}
`;

describe('/ws/events', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  let baseline: number;
  const client = () => connect(`${base}/ws/events`, bearer(token));
  const isCustom = (subtype: string) => (f: Frame) =>
    f.type === 'event' && f.args.subtype === subtype;

  beforeAll(async () => {
    t = await makeApp(HOOK_YAML);
    token = await registerAndToken(t.app);
    base = await listen(t.app);
    baseline = subscribers(t.service);
  });
  // Every test leaves the bus as it found it: no subscription outlives its socket.
  afterEach(async () => {
    await closeAll();
    await expect.poll(() => subscribers(t.service)).toBe(baseline);
  });
  afterAll(() => t.close());

  it('delivers events to every client as event messages', async () => {
    const [a, b] = await Promise.all([client(), client()]);
    await t.service.events.emit('CustomEvent', { subtype: 'ping', args: { n: 1 } });
    for (const c of [a, b]) {
      const frame = await c.next(isCustom('ping'));
      expect(frame).toMatchObject({
        type: 'event',
        origin: 'test-host',
        target: 'test-host',
        args: { type: CUSTOM, subtype: 'ping', args: { n: 1 } },
      });
      expect(frame.id).toMatch(/^[0-9a-f]{32}$/);
      expect(typeof frame._timestamp).toBe('number');
    }
  });

  it('publishes a client event: hooks run and every client (sender included) receives it', async () => {
    const [sender, other] = await Promise.all([client(), client()]);
    sender.send({
      type: 'event',
      id: 'e1',
      args: { type: 'svc.message.event.custom.CustomEvent', subtype: 'door', args: { who: 'ada' } },
    });
    for (const c of [sender, other]) {
      const frame = await c.next(isCustom('door'));
      expect(frame).toMatchObject({
        type: 'event',
        id: 'e1',
        origin: 'test-host',
        args: { type: CUSTOM, subtype: 'door', args: { who: 'ada' } },
      });
    }
    await t.service.events.idle();
    expect(t.service.store.variables.get('seen')).toBe('yes');
  });

  it('answers every unusable frame with an error frame', async () => {
    const c = await client();
    const cases: [unknown, RegExp][] = [
      ['{not json', /malformed JSON/],
      ['[1, 2]', /must be a JSON object/],
      [{ type: 'bogus' }, /"type" must be "event".*or "subscribe"/],
      [{ type: 'event' }, /args/],
      [{ type: 'event', args: { type: 'NoSuchEvent' } }, /unknown event kind "NoSuchEvent"/],
      [
        { type: 'event', args: { type: 'CustomEvent', args: 'x' } },
        /"args.args" must be an object/,
      ],
      [{ type: 'event', args: { type: 'WebhookEvent', hook: 'x' } }, /\/hook\/<name> only/],
      [{ type: 'subscribe', events: 'CustomEvent' }, /"events" must be a list/],
      [{ type: 'subscribe', events: ['Nope'] }, /unknown event kind "Nope"/],
    ];
    for (const [frame, error] of cases) {
      c.send(frame);
      const reply = await c.next();
      expect(reply.type, JSON.stringify(frame)).toBe('error');
      expect(reply.errors.join('\n')).toMatch(error);
    }
    c.ws.send(Buffer.from('{"type":"event"}'), { binary: true });
    expect((await c.next()).errors).toEqual([
      'binary frames are not accepted: send JSON as a text frame',
    ]);
    // Still open and usable after all that.
    c.send({ type: 'event', args: { type: 'CustomEvent', subtype: 'after' } });
    await c.next(isCustom('after'));
  });

  it('closes with 1009 on a frame larger than backend.http.max_body_bytes', async () => {
    const c = await client();
    c.send({ type: 'event', args: { type: 'CustomEvent', blob: 'x'.repeat(1024 * 1024) } });
    expect((await c.closed).code).toBe(1009);
  });

  it('filters server-side by subscribed kinds, in any spelling; [] means all again', async () => {
    t.service.events.kinds.declare('pipit.message.event.test.OtherEvent');
    const c = await client();
    c.send({ type: 'subscribe', events: ['svc.message.event.custom.CustomEvent', 'CustomEvent'] });
    expect(await c.next()).toEqual({ type: 'subscribed', events: [CUSTOM] });
    await t.service.events.emit('OtherEvent', { n: 1 });
    await t.service.events.emit('CustomEvent', { subtype: 'wanted' });
    expect((await c.next()).args.subtype).toBe('wanted');
    expect(c.frames).toEqual([]);

    c.send({ type: 'subscribe', events: [] });
    expect(await c.next()).toEqual({ type: 'subscribed', events: [] });
    await t.service.events.emit('OtherEvent', { n: 2 });
    expect(await c.next()).toMatchObject({
      args: { type: 'pipit.message.event.test.OtherEvent', n: 2 },
    });
  });

  it('replays the newest earlier events with ?history=N only, oldest first', async () => {
    for (const n of [1, 2, 3]) await t.service.events.emit('CustomEvent', { subtype: `old${n}` });
    const at = (query: string) => connect(`${base}/ws/events${query}`, bearer(token));
    const [live, two, bad, many] = await Promise.all([
      client(),
      at('?history=2'),
      at('?history=abc'),
      at('?history=100000'),
    ]);
    await t.service.events.emit('CustomEvent', { subtype: 'now' });
    for (const c of [live, two, bad, many]) await c.next(isCustom('now'));
    const subtypes = (c: { frames: Frame[] }): unknown[] =>
      c.frames.filter((f: Frame) => f.type === 'event').map((f: Frame): unknown => f.args.subtype);
    // Without history, live events only: what Platypush clients expect.
    expect(subtypes(live)).toEqual([]);
    expect(subtypes(bad)).toEqual([]);
    expect(subtypes(two)).toEqual(['old2', 'old3']);
    // Capped at the 50 kept; the earlier tests' events come first.
    expect(subtypes(many).slice(-3)).toEqual(['old1', 'old2', 'old3']);
    expect(subtypes(many).length).toBeLessThanOrEqual(50);
  });

  it('unsubscribes from the bus when a socket closes', async () => {
    const before = subscribers(t.service);
    const clients = await Promise.all([client(), client(), client()]);
    expect(subscribers(t.service)).toBe(before + 3);
    await Promise.all(clients.map(async (c) => (c.ws.close(), c.closed)));
    await expect.poll(() => subscribers(t.service)).toBe(before);
  });

  it('closes a slow consumer with 1013 while the others keep receiving', async () => {
    const before = subscribers(t.service);
    const [slow, fast] = await Promise.all([client(), client()]);
    // The slow client stops reading from its TCP socket: the kernel buffers fill, then the
    // server's send buffer grows until it passes the limit (4 MiB).
    (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const blob = 'x'.repeat(64 * 1024);
    let sent = 0;
    while (subscribers(t.service) === before + 2 && sent < 2000) {
      for (let i = 0; i < 8; i++) {
        await t.service.events.emit('CustomEvent', { subtype: 'bulk', args: { i: sent, blob } });
        sent++;
      }
      // The fast client reads everything published so far before the next batch.
      await fast.next((f) => f.args?.args?.i === sent - 1);
      fast.frames.length = 0;
    }
    expect(subscribers(t.service)).toBe(before + 1);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const { code, reason } = await slow.closed;
    expect(code).toBe(1013);
    expect(reason).toMatch(/^slow consumer/);
    // Nothing was dropped silently before the close: the slow client got a gap-free prefix.
    const got = slow.frames.map((f: Frame) => f.args.args.i as number);
    expect(got).toEqual(got.map((_, k) => k));
    await t.service.events.emit('CustomEvent', { subtype: 'still-live' });
    await fast.next(isCustom('still-live'));
  });
});
