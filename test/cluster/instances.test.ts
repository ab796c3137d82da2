// Heartbeats: an instance with another (or a mistyped) secret cannot remove or replace the others'
// heartbeats, so the healthy ones lose no routed call; redis.previous_secrets lets a secret be
// rotated; two live instances with one device_id (a cloned SD card) both say so, answer /readyz
// 503 and refuse routed requests until one is gone. Real Pipit processes and a real redis-server.
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SECRET,
  execute,
  instances,
  launchMember,
  logLines,
  waitForInstances,
  waitForReadyz,
} from './harness.ts';
import type { LoneMember } from './harness.ts';
import { startRedis } from './redis-server.ts';

const NEW_SECRET = 'the-new-cluster-secret-abcdef0123456789';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function member(
  name: string,
  url: string,
  extra = '',
  edit?: (yaml: string) => string,
): Promise<LoneMember> {
  const started = await launchMember(name, url, extra, edit);
  cleanups.push(() => started.cleanup());
  return started;
}

// The secret written in the file instead of !env.
const withSecret = (secret: string) => (yaml: string) =>
  yaml.replace('secret: !env PIPIT_CLUSTER_SECRET', `secret: ${secret}`);

describe('heartbeats', () => {
  it('an instance with another secret removes no heartbeat: the healthy pair loses no routed call', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const alpha = await member('alpha', redis.url);
    const beta = await member('beta', redis.url);
    await waitForInstances(alpha, ['alpha', 'beta']);
    const mallory = await member(
      'mallory',
      redis.url,
      '',
      withSecret('a-mistyped-secret-0123456789'),
    );
    // Mallory beats every 0.3 s and reads everyone's heartbeat: she verifies none.
    await vi.waitFor(
      async () => expect((await instances(mallory)).refused.bad_signature).toBeGreaterThan(4),
      { timeout: 10_000, interval: 50 },
    );

    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const from = i % 2 ? alpha : beta;
      const target = i % 2 ? 'beta' : 'alpha';
      statuses.push((await execute(from, { action: 'utils.echo', args: { i }, target })).status);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (const m of [alpha, beta]) {
      const report = await instances(m);
      expect(report.instances.map((i: { device_id: string }) => i.device_id).sort()).toEqual([
        'alpha',
        'beta',
      ]);
      expect(report.refused.bad_signature).toBeGreaterThan(0);
    }
    // Mallory sees nobody, and nothing she cannot verify is run there.
    expect((await execute(mallory, { action: 'utils.echo', target: 'alpha' })).status).toBe(404);
  }, 60_000);

  it('rotates the secret: previous_secrets verifies, never signs', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    // Step one of a rotation: alpha signs with the old secret and accepts the new one; beta
    // already signs with the new one and accepts the old one.
    const alpha = await member('alpha', redis.url, `  previous_secrets: [${NEW_SECRET}]`);
    const beta = await member(
      'beta',
      redis.url,
      `  previous_secrets: [${SECRET}]`,
      withSecret(NEW_SECRET),
    );
    // Gamma knows only the new secret: what alpha signs (with the old one) it refuses.
    const gamma = await member('gamma', redis.url, '', withSecret(NEW_SECRET));
    await waitForInstances(alpha, ['alpha', 'beta', 'gamma']);
    await waitForInstances(beta, ['alpha', 'beta', 'gamma']);
    await waitForInstances(gamma, ['beta', 'gamma']);

    expect((await execute(alpha, { action: 'utils.echo', target: 'beta' })).status).toBe(200);
    expect((await execute(beta, { action: 'utils.echo', target: 'alpha' })).status).toBe(200);
    expect((await instances(alpha)).refused.bad_signature).toBe(0);
    expect((await instances(beta)).refused.bad_signature).toBe(0);
    expect((await instances(gamma)).refused.bad_signature).toBeGreaterThan(0);
  }, 60_000);
});

describe('redis.key_prefix', () => {
  it('keeps two clusters apart on one Redis', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const alpha = await member('alpha', redis.url);
    const home = await member('home', redis.url, '  key_prefix: home');
    await member('other', redis.url, '  key_prefix: home');
    await waitForInstances(home, ['home', 'other']);
    await waitForInstances(alpha, ['alpha']);
    expect((await execute(home, { action: 'utils.echo', target: 'other' })).status).toBe(200);
    expect((await execute(home, { action: 'utils.echo', target: 'alpha' })).status).toBe(404);
    expect((await execute(alpha, { action: 'utils.echo', target: 'home' })).status).toBe(404);
    const admin = new Redis(redis.url);
    cleanups.push(() => void admin.disconnect());
    const keys = await admin.keys('*');
    expect(keys.filter((k) => !/^(pipit|home):/.test(k))).toEqual([]);
    expect(keys.some((k) => k.startsWith('home:instance:other:'))).toBe(true);
    expect(keys.some((k) => k.startsWith('pipit:instance:other:'))).toBe(false);
  }, 60_000);
});

describe('two instances with one device_id', () => {
  it('both log an error, answer /readyz 503 and refuse routed requests until one is gone', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const beta = await member('beta', redis.url);
    const first = await member('alpha', redis.url);
    await waitForInstances(beta, ['alpha', 'beta']);
    await execute(first, { action: 'variable.set', args: { light: 'off' } });
    await waitForReadyz(first, 200);

    const clone = await member('alpha', redis.url);
    await execute(clone, { action: 'variable.set', args: { light: 'off' } });
    // (In the JSON log line, the quotes are escaped.)
    const twin = /another instance also runs as \\"alpha\\"/;
    for (const m of [first, clone]) {
      await waitForReadyz(m, 503);
      await vi.waitFor(() => expect(logLines(m, twin).length).toBe(1), {
        timeout: 10_000,
        interval: 50,
      });
    }

    for (let i = 0; i < 5; i++) {
      const routed = await execute(beta, {
        action: 'variable.set',
        args: { light: 'on' },
        target: 'alpha',
      });
      expect(routed.status).toBe(503);
    }
    for (const m of [first, clone]) {
      const light = await execute(m, { action: 'variable.get', args: { name: 'light' } });
      expect(light.body.response.output).toEqual({ light: 'off' });
    }
    expect(logLines(first, twin)).toHaveLength(1);
    expect((await instances(first)).cluster).toBe('faulty');

    // Resolved: the clone stops (its heartbeat goes with it).
    await clone.cleanup();
    await waitForReadyz(first, 200);
    const routed = await execute(beta, {
      action: 'variable.set',
      args: { light: 'on' },
      target: 'alpha',
    });
    expect(routed.status).toBe(200);
    expect(logLines(first, /the other instance running as \\"alpha\\" is gone/)).toHaveLength(1);
  }, 60_000);
});
