// `once: true` holds for the whole window in which an instance may still read an event: an
// instance stalled (SIGSTOP) or cut off (its connection to Redis silent, not closed) for longer
// than the locks used to live, but within the catch-up window, reads the events it missed and
// finds their locks still held; its cron claims that resolve late are dropped. Two real Pipit
// processes and a real redis-server; beta reaches Redis through a proxy that can go silent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/service.ts';
import { custom, echoHooks, record } from './frames.ts';
import type { Received } from './frames.ts';
import { configYaml, events, execute, launch, waitForInstances } from './harness.ts';
import type { Member } from './harness.ts';
import { startProxy } from './proxy.ts';
import type { PausableProxy } from './proxy.ts';
import { startRedis } from './redis-server.ts';
import type { RedisServer } from './redis-server.ts';

// Locks used to live 2 × clock_skew_seconds (2 s here); the outages below last longer than that
// and less than catch_up_seconds, so the events missed are still read afterwards.
const OUTAGE_MS = 3_500;

const config = (name: string) => `  catch_up_seconds: 8
  clock_skew_seconds: 1
  command_timeout_seconds: 20
${echoHooks(name)}cron.Tick:
  cron_expression: '* * * * * *'
  once: true
  actions:
    - action: event.fire
      args: {subtype: tick, args: {by: ${name}}}
`;

let redis: RedisServer;
let proxy: PausableProxy;
let alpha: Member;
let beta: Member;
let seen: Received;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  redis = await startRedis();
  cleanups.push(() => redis.stop());
  proxy = await startProxy(redis.port);
  cleanups.push(() => proxy.close());
  const start = async (name: string, url: string) => {
    const temp = tempDir(`pipit-once-${name}-`);
    cleanups.push(temp.cleanup);
    const configPath = join(temp.dir, 'config.yaml');
    writeFileSync(configPath, configYaml(name, url, config(name)));
    mkdirSync(join(temp.dir, 'scripts'));
    const member = await launch(name, temp.dir, configPath);
    cleanups.push(() => member.proc.stop());
    return member;
  };
  [alpha, beta] = await Promise.all([start('alpha', redis.url), start('beta', proxy.url)]);
  await Promise.all([alpha, beta].map((m) => waitForInstances(m, ['alpha', 'beta'])));
  seen = record(await events(alpha));
}, 60_000);

afterAll(async () => {
  beta?.proc.child.kill('SIGCONT');
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let fences = 0;
// beta's own earlier events precede its marker in the stream: once alpha has it, they are in.
async function fence(): Promise<void> {
  const id = ++fences;
  await execute(beta, { action: 'event.fire', args: { subtype: 'fence', args: { id } } });
  await seen.await(custom('fence', { id }));
}

async function ping(from: number, to: number): Promise<number[]> {
  const ns = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  for (const n of ns)
    await execute(alpha, { action: 'event.fire', args: { subtype: 'ping', args: { n } } });
  // beta is out: alpha took every lock.
  for (const n of ns) await seen.await(custom('pong-once', { n, by: 'alpha' }));
  return ns;
}

// Once beta answered every ping with its plain hook, it has read them all and claimed their locks:
// how many times each ping's once hook ran.
async function onceRuns(ns: number[]): Promise<number[]> {
  for (const n of ns) await seen.await(custom('pong', { n, by: 'beta' }), 1, 20_000);
  await fence();
  return ns.map((n) => seen.count(custom('pong-once', { n })));
}

// Ticks of the once cron, by the second they ran in: one run per scheduled second.
function ticksPerSecond(): number[] {
  const bySecond = new Map<number, number>();
  for (const t of seen.all.filter(custom('tick'))) {
    const second = Math.floor(t._timestamp as number);
    bySecond.set(second, (bySecond.get(second) ?? 0) + 1);
  }
  return [...bySecond.values()];
}

describe('once: true after an instance stalled or was cut off', () => {
  it('runs each once hook once per event when an instance was stopped (SIGSTOP) for seconds', async () => {
    const { child } = beta.proc;
    child.kill('SIGSTOP');
    let ns: number[];
    try {
      ns = await ping(1, 10);
      // Waiting out the old locks' lifetime is the point: nothing to await but time.
      await delay(OUTAGE_MS);
    } finally {
      child.kill('SIGCONT');
    }
    expect({ hooks: await onceRuns(ns), slots: ticksPerSecond().filter((c) => c > 1) }).toEqual({
      hooks: ns.map(() => 1),
      slots: [],
    });
  }, 60_000);

  it('runs each once hook and cron slot once when an instance was cut off from Redis without a close', async () => {
    proxy.pause();
    let ns: number[];
    try {
      ns = await ping(11, 20);
      await delay(OUTAGE_MS);
    } finally {
      proxy.resume();
    }
    // beta's cron claims went out during the outage and reached Redis at its end: a slot whose
    // lock had expired would run a second time.
    expect({ hooks: await onceRuns(ns), slots: ticksPerSecond().filter((c) => c > 1) }).toEqual({
      hooks: ns.map(() => 1),
      slots: [],
    });
  }, 60_000);
});
