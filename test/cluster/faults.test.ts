// Faults that used to report "connected" and /readyz 200: Redis Cluster, an ACL user without a
// command Pipit needs, a key taken by another application (WRONGTYPE), and a stream trimmed past
// the last event read. Each is named in one log line and answers /readyz 503. A real redis-server
// and real Pipit processes.
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  execute,
  instances,
  launchMember,
  logLines,
  waitForInstances,
  waitForReadyz,
} from './harness.ts';
import type { LoneMember } from './harness.ts';
import { startRedis } from './redis-server.ts';
import { docsText } from '../readme/docs-text.ts';
import type { RedisServer } from './redis-server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function redisServer(args?: string[]): Promise<RedisServer> {
  const server = await startRedis(args ? { args } : {});
  cleanups.push(() => server.stop());
  return server;
}

async function member(name: string, url: string, extra = ''): Promise<LoneMember> {
  const started = await launchMember(name, url, extra);
  cleanups.push(() => started.cleanup());
  return started;
}

async function client(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  cleanups.push(() => void redis.disconnect());
  return redis;
}

// Several heartbeats (0.3 s each): long enough for a fault to be logged again if it were.
const BEATS_MS = 1_500;

// The documented ACL line (README.md or docs/), as an argument list for ACL SETUSER (password: pw).
function readmeAcl(): string[] {
  const line = /^redis-cli ACL SETUSER (.+)$/m.exec(docsText())?.[1];
  if (!line) throw new Error('the documentation has no "redis-cli ACL SETUSER" line');
  return line
    .split(/\s+/)
    .slice(1)
    .map((word) => word.replace(/^'(.*)'$/, '$1').replaceAll('\\|', '|'))
    .map((word) => (word === '><password>' ? '>pw' : word));
}

describe('faults that used to look healthy', () => {
  it('a key of another type (WRONGTYPE) is named once, answers /readyz 503, and clears', async () => {
    const redis = await redisServer();
    const admin = await client(redis.url);
    await admin.set('pipit:events', 'not a stream');
    const alpha = await member('alpha', redis.url);
    await waitForReadyz(alpha, 503);
    const line = /pipit:events holds a string, not a stream .*WRONGTYPE/;
    await vi.waitFor(() => expect(logLines(alpha, line)).toHaveLength(1), { timeout: 10_000 });
    const report = await instances(alpha);
    expect(report.cluster).toBe('faulty');
    expect(report.error).toMatch(/holds a string/);
    expect(logLines(alpha, /Redis is unreachable/)).toEqual([]);
    await delay(BEATS_MS);
    expect(logLines(alpha, line)).toHaveLength(1);

    await admin.del('pipit:events');
    await waitForReadyz(alpha, 200);
    expect(logLines(alpha, /resolved: pipit:events holds a string/)).toHaveLength(1);
  }, 60_000);

  it('an ACL user without a command Pipit sends: the command is named, /readyz 503', async () => {
    const redis = await redisServer();
    const admin = await client(redis.url);
    await admin.call('ACL', 'SETUSER', 'pipit', ...readmeAcl(), '-xadd');
    const url = `redis://pipit:pw@127.0.0.1:${redis.port}`;
    const alpha = await member('alpha', url);
    await waitForReadyz(alpha, 503);
    const line = /refuses the command XADD to this user \(NOPERM/;
    await vi.waitFor(() => expect(logLines(alpha, line)).toHaveLength(1), { timeout: 10_000 });
    expect(logLines(alpha, /NOPERM/)).toHaveLength(1);
    await delay(BEATS_MS);
    expect(logLines(alpha, line)).toHaveLength(1);

    // Given the command, it is ready: the check runs again while a fault lasts.
    await admin.call('ACL', 'SETUSER', 'pipit', '+xadd');
    await waitForReadyz(alpha, 200);
  }, 60_000);

  it('the documented ACL line is enough for a cluster', async () => {
    const redis = await redisServer();
    const admin = await client(redis.url);
    await admin.call('ACL', 'SETUSER', 'pipit', ...readmeAcl());
    const url = `redis://pipit:pw@127.0.0.1:${redis.port}`;
    const alpha = await member('alpha', url);
    const beta = await member('beta', url);
    await waitForInstances(alpha, ['alpha', 'beta']);
    await waitForReadyz(alpha, 200);
    await waitForReadyz(beta, 200);
    const routed = await execute(alpha, { action: 'utils.echo', args: { a: 1 }, target: 'beta' });
    expect(routed.status).toBe(200);
    expect(logLines(alpha, /NOPERM/)).toEqual([]);
    expect(logLines(beta, /NOPERM/)).toEqual([]);
  }, 60_000);

  it('Redis Cluster is refused with a clear message', async () => {
    const redis = await redisServer(['--cluster-enabled', 'yes']);
    const alpha = await member('alpha', redis.url);
    await waitForReadyz(alpha, 503);
    const line = /cluster mode \(cluster_enabled:1\): Pipit does not support Redis Cluster/;
    await vi.waitFor(() => expect(logLines(alpha, line)).toHaveLength(1), { timeout: 10_000 });
    expect((await instances(alpha)).cluster).toBe('faulty');
    expect((await execute(alpha, { action: 'utils.echo', target: 'beta' })).status).toBe(503);
  }, 60_000);

  it('a stream trimmed past the last event read is named and counted', async () => {
    const redis = await redisServer();
    const alpha = await member('alpha', redis.url);
    await waitForReadyz(alpha, 200);
    const admin = await client(redis.url);
    // Alpha stops reading (a paused process) while 300 entries go in and all but 100 go out.
    alpha.proc.child.kill('SIGSTOP');
    try {
      for (let i = 0; i < 300; i++)
        await admin.xadd('pipit:events', 'MAXLEN', '100', '*', 'm', `junk ${i}`);
    } finally {
      alpha.proc.child.kill('SIGCONT');
    }
    const line = /the event stream pipit:events was trimmed past the last event this instance read/;
    await vi.waitFor(() => expect(logLines(alpha, line)).toHaveLength(1), { timeout: 10_000 });
    expect(logLines(alpha, line)[0]).toMatch(/200 events after it are lost here/);
    expect((await instances(alpha)).events.trimmed_unread).toBe(200);
    await waitForReadyz(alpha, 200);
  }, 60_000);
});
