// Whoever can call /hook/<name> or write to Redis cannot fill the shared event stream, stop its
// delivery, run hooks again with a copy of a signed event, or make every instance read a huge
// entry. Two real Pipit processes and a real redis-server.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import type { Frame } from '../http/ws-client.ts';
import { custom, record } from './frames.ts';
import type { Received } from './frames.ts';
import { events, execute, instances, startCluster } from './harness.ts';
import type { Member, TestCluster } from './harness.ts';

const MAX_EVENT_BYTES = 4096;

const extra = (name: string) => `  catch_up_seconds: 5
  clock_skew_seconds: 1
  max_event_bytes: ${MAX_EVENT_BYTES}
event.hook.Door:
  if: {type: WebhookEvent, hook: door}
  then:
    - return: {opened: true}
event.hook.Echo:
  if: {type: CustomEvent, subtype: ping}
  then:
    - action: event.fire
      args: {subtype: pong, args: {by: ${name}, n: '\${args["n"]}'}}
`;

let cluster: TestCluster;
let alpha: Member;
let beta: Member;
let onAlpha: Received;
let onBeta: Received;
let redis: Redis;

beforeAll(async () => {
  cluster = await startCluster(['alpha', 'beta'], { extra });
  alpha = cluster.members.alpha!;
  beta = cluster.members.beta!;
  onAlpha = record(await events(alpha));
  onBeta = record(await events(beta));
  redis = new Redis(cluster.redis.url);
}, 60_000);

afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

const refused = async (m: Member) => (await instances(m)).refused as Record<string, number>;
const hookNamed = (prefix: string) => (f: Frame) => String(f.args?.hook ?? '').startsWith(prefix);

let marks = 0;
// An event from `from` that `on` has received: everything `from` published before it was read.
async function mark(from: Member, on: Received): Promise<void> {
  const id = ++marks;
  await execute(from, { action: 'event.fire', args: { subtype: 'mark', args: { id } } });
  await on.await(custom('mark', { id }));
}

describe('the shared event stream under abuse', () => {
  it('publishes only web hooks with a listener, and no event larger than max_event_bytes', async () => {
    const before = await redis.xlen('pipit:events');
    const body = 'x'.repeat(10_000);
    const statuses: number[] = [];
    for (let i = 0; i < 300; i += 10)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, j) =>
            fetch(`${alpha.url}/hook/nothing-${i + j}`, { method: 'POST', body }).then(
              (r) => r.status,
            ),
          ),
        )),
      );
    expect(new Set(statuses)).toEqual(new Set([404]));
    const large = await fetch(`${alpha.url}/hook/door`, { method: 'POST', body });
    expect(await large.json()).toEqual({ opened: true });
    const small = await fetch(`${alpha.url}/hook/door?n=1`);
    expect(await small.json()).toEqual({ opened: true });
    await onBeta.await((f) => f.args?.hook === 'door');
    await mark(alpha, onBeta);

    // Only the small door event and the mark went into Redis.
    expect((await redis.xlen('pipit:events')) - before).toBe(2);
    expect(onBeta.count(hookNamed('nothing-'))).toBe(0);
    expect(
      onBeta.all.filter((f) => f.args?.hook === 'door').map((f) => f.args.args as unknown),
    ).toEqual([{ n: '1' }]);
    // This instance's own subscribers still see every call.
    expect(onAlpha.count(hookNamed('nothing-'))).toBe(300);
    expect(onAlpha.count((f) => f.args?.hook === 'door')).toBe(2);
    expect((await instances(alpha)).events.too_large).toBe(1);
  });

  it('reads past an entry too large to read, which Redis never sends, and deletes it', async () => {
    const sentBytes = async () =>
      Number(/total_net_output_bytes:(\d+)/.exec(await redis.info('stats'))![1]);
    const entryBytes = 20 * 1024 * 1024;
    const [alphaBefore, betaBefore] = [await refused(alpha), await refused(beta)];
    const before = await sentBytes();
    await redis.xadd('pipit:events', '*', 'm', 'z'.repeat(entryBytes));
    await mark(alpha, onBeta);
    await mark(beta, onAlpha);
    // Both instances read past it: without the cap, Redis sent it once to each.
    expect((await sentBytes()) - before).toBeLessThan(entryBytes / 4);
    // The first to read it refused it and deleted it from the stream.
    const oversized =
      (await refused(alpha)).oversized! -
      alphaBefore.oversized! +
      (await refused(beta)).oversized! -
      betaBefore.oversized!;
    expect(oversized).toBe(1);
    const left = await redis.xrevrange('pipit:events', '+', '-', 'COUNT', 10);
    expect(left.filter(([, f]) => f[1]!.length > MAX_EVENT_BYTES)).toEqual([]);
  });

  it('judges an event by its signed time: a copy added later with a chosen id is not delivered again', async () => {
    await execute(alpha, { action: 'event.fire', args: { subtype: 'once-more', args: { n: 7 } } });
    await onBeta.await(custom('once-more', { n: 7 }));
    // The last entry: nothing answers this event.
    const [id, fields] = (await redis.xrevrange('pipit:events', '+', '-', 'COUNT', 1))[0]!;
    expect(fields[1]).toContain('"once-more"');
    const before = await refused(beta);
    // Past the time nonces used to be kept (2 x clock_skew_seconds), within the catch-up window.
    await delay(2_500);
    // Dated just after the original: as fresh as it by its stream id.
    await redis.xadd('pipit:events', `${Number(id.split('-')[0]) + 1}-0`, 'm', fields[1]!);
    await mark(alpha, onBeta);
    expect(onBeta.count(custom('once-more', { n: 7 }))).toBe(1);
    expect((await refused(beta)).replayed! - before.replayed!).toBe(1);
  });

  it('recovers without a restart from a stream id far ahead of Redis, recreated or deleted', async () => {
    const unsigned = async () => (await refused(beta)).unsigned!;
    for (const repair of ['the next event', 'deleting the stream']) {
      const before = await unsigned();
      await redis.xadd('pipit:events', '9999999999999-0', 'm', 'junk');
      // beta has read it, and its position is now far ahead.
      await vi.waitFor(async () => expect(await unsigned()).toBe(before + 1), { timeout: 10_000 });
      if (repair === 'deleting the stream') await redis.del('pipit:events');
      await execute(alpha, { action: 'event.fire', args: { subtype: 'after', args: { repair } } });
      await onBeta.await(custom('after', { repair }));
      const [id] = (await redis.xrange('pipit:events', '-', '+'))[0]!;
      expect(Number(id.split('-')[0])).toBeLessThan(Date.now() + 60_000);
    }
    expect(beta.proc.logs.join('\n')).toMatch(/far ahead of Redis' clock/);
    expect(alpha.proc.logs.join('\n')).toMatch(/it was recreated/);
  });
});
