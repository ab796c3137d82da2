// An instance whose Redis is down when it starts still starts, serves its own work, says
// so (/readyz, inspect.instances, one log line), and joins the cluster when Redis comes up; the
// events raised meanwhile are published then (the newest `buffer_events` of them; the oldest are
// dropped and counted).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '../helpers/net.ts';
import { sample } from '../helpers/prometheus.ts';
import { tempDir } from '../helpers/service.ts';
import { configYaml, execute, instances, launch, metricsOf, waitForReadyz } from './harness.ts';
import type { Member } from './harness.ts';
import { startRedis } from './redis-server.ts';
import type { RedisServer } from './redis-server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('Redis down when an instance starts', () => {
  it('starts, serves local work, reports Redis down, and joins when it comes up', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const temp = tempDir('pipit-cluster-start-');
    cleanups.push(temp.cleanup);
    const configPath = join(temp.dir, 'config.yaml');
    writeFileSync(configPath, configYaml('solo', url, '  buffer_events: 3'));
    mkdirSync(join(temp.dir, 'scripts'));
    const solo: Member = await launch('solo', temp.dir, configPath);
    cleanups.push(async () => void (await solo.proc.stop()));

    expect((await fetch(`${solo.url}/readyz`)).status).toBe(503);
    const down = await instances(solo);
    expect(down).toMatchObject({ cluster: 'unreachable', redis: `${url}`, self: 'solo' });
    expect(down.error).toMatch(/ECONNREFUSED|closed/);
    expect(solo.proc.logs.join('\n')).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+/);
    expect((await execute(solo, { action: 'utils.echo', args: { a: 1 } })).status).toBe(200);
    expect((await execute(solo, { action: 'utils.echo', target: 'other' })).status).toBe(503);
    // Events of its own may wait already (it started with Redis down): they are the oldest.
    const before = sample(await metricsOf(solo), 'pipit_cluster_events_buffered') ?? 0;
    expect(before).toBeLessThanOrEqual(3);
    for (let i = 1; i <= 5; i++)
      await execute(solo, { action: 'event.fire', args: { subtype: `raised-while-down-${i}` } });
    const whileDown = await metricsOf(solo);
    expect(sample(whileDown, 'pipit_cluster_connected')).toBe(0);
    expect(sample(whileDown, 'pipit_cluster_events_buffered')).toBe(3);
    expect(sample(whileDown, 'pipit_cluster_events_lost_total', { reason: 'dropped' })).toBe(
      before + 5 - 3,
    );

    const redis: RedisServer = await startRedis({ port });
    cleanups.push(() => redis.stop());
    await waitForReadyz(solo, 200);
    expect((await instances(solo)).cluster).toBe('connected');
    expect(sample(await metricsOf(solo), 'pipit_cluster_connected')).toBe(1);

    // What waited in memory is in the stream now, for the other instances: the three newest, in
    // the order they were raised.
    const client = new Redis(redis.url);
    cleanups.push(() => client.disconnect());
    await vi.waitFor(
      async () => {
        const entries = await client.xrange('pipit:events', '-', '+');
        const raised = entries.flatMap(
          ([, fields]) => fields[1]?.match(/raised-while-down-\d/g) ?? [],
        );
        expect(raised).toEqual([
          'raised-while-down-3',
          'raised-while-down-4',
          'raised-while-down-5',
        ]);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(sample(await metricsOf(solo), 'pipit_cluster_events_buffered')).toBe(0);
  }, 30_000);
});
