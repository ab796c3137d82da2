// Events across instances (once each), `once: true` hooks and crons, and Redis restarted
// under a running cluster. Three Pipit processes and a real redis-server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../http/ws-client.ts';
import { custom, echoHooks, record } from './frames.ts';
import type { Received } from './frames.ts';
import { events, execute, instances, startCluster, waitForReadyz } from './harness.ts';
import type { Member, TestCluster } from './harness.ts';

const NAMES = ['alpha', 'beta', 'gamma'];

// Every instance answers a ping (Echo, on each), once for the cluster (EchoOnce), and has a
// cluster-wide cron (Tick) and a per-instance one (LocalTick), both every second.
const hooks = (name: string) => `
${echoHooks(name)}cron.Tick:
  cron_expression: '* * * * * *'
  once: true
  actions:
    - action: event.fire
      args: {subtype: tick, args: {by: ${name}}}
cron.LocalTick:
  cron_expression: '* * * * * *'
  actions:
    - action: event.fire
      args: {subtype: tick-local, args: {by: ${name}}}
`;

let cluster: TestCluster;
let members: Member[];
let seen: Received[];

beforeAll(async () => {
  cluster = await startCluster(NAMES, { extra: hooks });
  members = NAMES.map((n) => cluster.members[n]!);
  seen = await Promise.all(members.map(async (m) => record(await events(m))));
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

let fences = 0;
// Every instance publishes a marker after what the test awaited; its own earlier events precede
// it in the stream, so once every client has every marker, any duplicate would have arrived.
async function fence(): Promise<void> {
  const id = ++fences;
  await Promise.all(
    members.map((m) =>
      execute(m, { action: 'event.fire', args: { subtype: 'fence', args: { id, by: m.name } } }),
    ),
  );
  await Promise.all(seen.map((s) => s.await(custom('fence', { id }), members.length)));
}

// What every instance's subscribers must have seen for ping `n`: the ping once, a pong from each
// instance's hook, and one pong-once for the whole cluster.
async function expectAnsweredOnce(n: number, origin: string): Promise<void> {
  for (const s of seen) {
    await s.await(custom('ping', { n }));
    await s.await(custom('pong', { n }), NAMES.length);
    await s.await(custom('pong-once', { n }));
  }
  await fence();
  for (const s of seen) {
    const pings = s.all.filter(custom('ping', { n }));
    expect(pings.map((f: Frame) => String(f.origin))).toEqual([origin]);
    const pongs = s.all.filter(custom('pong', { n }));
    expect(pongs.map((f: Frame) => String(f.args.args.by)).sort()).toEqual(NAMES);
    expect(pongs.map((f: Frame) => String(f.origin)).sort()).toEqual(NAMES);
    expect(s.count(custom('pong-once', { n }))).toBe(1);
  }
}

describe('a cluster of three instances sharing one Redis', () => {
  it('delivers an event raised on one instance to the subscribers and hooks of all, once each', async () => {
    await execute(members[0]!, {
      action: 'event.fire',
      args: { subtype: 'ping', args: { n: 1 } },
    });
    await expectAnsweredOnce(1, 'alpha');

    // Published by a WebSocket client of another instance.
    const client = await events(members[2]!);
    client.send({ type: 'event', args: { type: 'CustomEvent', subtype: 'ping', args: { n: 2 } } });
    await expectAnsweredOnce(2, 'gamma');
  });

  it('runs a once: true cron once per second in the cluster, and a plain cron on every instance', async () => {
    const alpha = seen[0]!;
    const from = alpha.count(custom('tick'));
    const ticks = (await alpha.await(custom('tick'), from + 4, 20_000)).slice(from);
    const bySecond = new Map<number, Frame[]>();
    for (const t of ticks) {
      const second = Math.floor(t._timestamp as number);
      bySecond.set(second, [...(bySecond.get(second) ?? []), t]);
    }
    // Four periods, one run each (whichever instance took the lock).
    expect([...bySecond.values()].map((group) => group.length)).toEqual([1, 1, 1, 1]);

    // Per instance: every instance ran LocalTick in each whole second seen.
    const local = alpha.all.filter(custom('tick-local'));
    const seconds = [
      ...new Set(local.map((t: Frame) => Math.floor(t._timestamp as number))),
    ].sort();
    const whole = seconds.slice(1, -1);
    expect(whole.length).toBeGreaterThanOrEqual(2);
    for (const second of whole) {
      const by = local
        .filter((t: Frame) => Math.floor(t._timestamp as number) === second)
        .map((t: Frame) => String(t.args.args.by))
        .sort();
      expect(by).toEqual(NAMES);
    }
  }, 30_000);

  it('serves local work while Redis is down, fails remote work fast, and delivers what waited exactly once when it is back', async () => {
    const [alpha, beta] = members as [Member, Member];
    await cluster.redis.kill();
    await Promise.all(members.map((m) => waitForReadyz(m, 503)));
    const report = await instances(alpha);
    expect(report.cluster).toBe('unreachable');
    expect(report.error).toEqual(expect.any(String));

    const local = await execute(alpha, { action: 'utils.echo', args: { x: 1 } });
    expect(local.status).toBe(200);
    expect(local.body.response.output).toEqual({ x: 1 });

    const started = performance.now();
    const remote = await execute(alpha, { action: 'utils.echo', target: 'beta' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(remote.status).toBe(503);
    expect(remote.body.response.errors[0]).toMatch(
      /cannot reach instance "beta": Redis at .* is unreachable/,
    );

    // Raised during the outage: delivered here at once, to the others when Redis is back.
    await execute(alpha, { action: 'event.fire', args: { subtype: 'ping', args: { n: 3 } } });
    await seen[0]!.await(custom('pong', { n: 3, by: 'alpha' }));

    await cluster.redis.start();
    await Promise.all(members.map((m) => waitForReadyz(m, 200)));
    await expectAnsweredOnce(3, 'alpha');

    await execute(beta, { action: 'event.fire', args: { subtype: 'ping', args: { n: 4 } } });
    await expectAnsweredOnce(4, 'beta');
  }, 60_000);
});
