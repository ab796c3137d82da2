// An instance whose clock is two minutes slow (libfaketime) reads the event stream from its start
// on Redis' clock, not its own: it replays none of the events published before it started, its
// events are accepted by the others and theirs by it, and it says that its clock is off. A real
// redis-server and two Pipit processes.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/service.ts';
import { custom, echoHooks, record } from './frames.ts';
import type { Received } from './frames.ts';
import { configYaml, events, execute, instances, launch, startCluster } from './harness.ts';
import type { Member, TestCluster } from './harness.ts';

// Debian's libfaketime (scripts/system-deps.sh installs it).
const FAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

const config = (name: string) => `  clock_skew_seconds: 1
${echoHooks(name)}`;

let cluster: TestCluster;
let alpha: Member;
let slow: Member | undefined;
let onAlpha: Received;
let redis: Redis;
let slowDir: string;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  if (!existsSync(FAKETIME)) throw new Error(`${FAKETIME} is missing: run scripts/system-deps.sh`);
  cluster = await startCluster(['alpha'], { extra: config });
  alpha = cluster.members.alpha!;
  onAlpha = record(await events(alpha));
  redis = new Redis(cluster.redis.url);
}, 60_000);

afterAll(async () => {
  redis?.disconnect();
  await slow?.proc.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
  await cluster?.stop();
});

// The instance of slowDir, its clock 120 s behind.
function startSlow(): Promise<Member> {
  return launch('slow', slowDir, join(slowDir, 'config.yaml'), undefined, {
    LD_PRELOAD: FAKETIME,
    FAKETIME: '-120s',
    // Timers run on the monotonic clock: left alone, so that they fire on time.
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  });
}

describe('an instance whose clock is 120 s slow', () => {
  it('replays nothing from before its start, exchanges events with the others, and warns', async () => {
    const old = [1, 2, 3, 4, 5, 6];
    for (const n of old)
      await execute(alpha, { action: 'event.fire', args: { subtype: 'ping', args: { n } } });
    for (const n of old) await onAlpha.await(custom('pong-once', { n }));
    // Past the lifetime the once locks used to have (2 x clock_skew_seconds): a replay would
    // have run the once hooks a second time.
    await delay(2_500);

    const temp = tempDir('pipit-clock-slow-');
    cleanups.push(temp.cleanup);
    slowDir = temp.dir;
    writeFileSync(
      join(slowDir, 'config.yaml'),
      configYaml('slow', cluster.redis.url, config('slow')),
    );
    mkdirSync(join(slowDir, 'scripts'));
    slow = await startSlow();
    const onSlow = record(await events(slow));

    // Its clock really is slow.
    const { body } = await execute(slow, { action: 'event.fire', args: { subtype: 'clock' } });
    expect(body._timestamp as number).toBeLessThan(Date.now() / 1000 - 100);

    // alpha's events reach its hooks; the stream is read in order, so by the time it answers
    // ping 100 it has read whatever it was going to read of the older ones.
    await execute(alpha, { action: 'event.fire', args: { subtype: 'ping', args: { n: 100 } } });
    await onSlow.await(custom('pong', { n: 100, by: 'slow' }));
    // Who holds each old ping's once lock: alpha, which ran it, and nobody else since.
    const ids = old.map((n) => onAlpha.all.find(custom('ping', { n }))!.id as string);
    const holders = await Promise.all(ids.map((id) => redis.get(`pipit:once:hook:EchoOnce:${id}`)));
    expect(holders).toEqual(old.map(() => 'alpha'));
    // Its answers reach alpha, and there were none to the old pings.
    await onAlpha.await(custom('pong', { n: 100, by: 'slow' }));
    expect(old.map((n) => onAlpha.count(custom('pong', { n, by: 'slow' })))).toEqual(
      old.map(() => 0),
    );

    // Its events reach alpha's hooks.
    await execute(slow, { action: 'event.fire', args: { subtype: 'ping', args: { n: 200 } } });
    await onAlpha.await(custom('pong', { n: 200, by: 'alpha' }));
    await onSlow.await(custom('pong', { n: 200, by: 'alpha' }));
    expect(slow.proc.logs.join('\n')).toMatch(/clock is 1[12]\d\.\d s behind Redis' TIME/);
  }, 60_000);

  it('refuses, after a quick restart, a copy of an event its previous run had read', async () => {
    await execute(alpha, { action: 'event.fire', args: { subtype: 'ping', args: { n: 300 } } });
    await onAlpha.await(custom('pong', { n: 300, by: 'slow' }));
    const [, fields] = (await redis.xrevrange('pipit:events', '+', '-', 'COUNT', 50)).find(
      ([, f]) => f[1]!.includes('"n":300') && f[1]!.includes('"ping"'),
    )!;
    await slow!.proc.stop();
    slow = await startSlow();
    const onSlow = record(await events(slow));
    const before = (await instances(slow)).refused as Record<string, number>;
    // Well within the window a signed event is fresh for; its nonce is unknown to this process.
    await redis.xadd('pipit:events', '*', 'm', fields[1]!);
    await execute(alpha, { action: 'event.fire', args: { subtype: 'ping', args: { n: 301 } } });
    await onSlow.await(custom('pong', { n: 301, by: 'slow' }));
    expect(onSlow.count(custom('pong', { n: 300, by: 'slow' }))).toBe(0);
    const after = (await instances(slow)).refused as Record<string, number>;
    expect(after.stale! - before.stale!).toBe(1);
  }, 60_000);
});
