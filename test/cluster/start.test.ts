// Issue 15: an instance whose Redis is down when it starts still starts, serves its own work, says
// so (/readyz, inspect.instances, one log line), and joins the cluster when Redis comes up; the
// events raised meanwhile are published then.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
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
    writeFileSync(configPath, configYaml('solo', url, ''));
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
    await execute(solo, { action: 'event.fire', args: { subtype: 'raised-while-down' } });
    const whileDown = await metricsOf(solo);
    expect(sample(whileDown, 'pipit_cluster_connected')).toBe(0);
    expect(sample(whileDown, 'pipit_cluster_events_buffered')).toBeGreaterThanOrEqual(1);

    const redis: RedisServer = await startRedis({ port });
    cleanups.push(() => redis.stop());
    await waitForReadyz(solo, 200);
    expect((await instances(solo)).cluster).toBe('connected');
    expect(sample(await metricsOf(solo), 'pipit_cluster_connected')).toBe(1);

    // What waited in memory is in the stream now, for the other instances.
    const client = new Redis(redis.url);
    cleanups.push(() => client.disconnect());
    for (let i = 0; i < 100; i++) {
      const entries = await client.xrange('pipit:events', '-', '+');
      if (entries.some(([, fields]) => fields[1]?.includes('raised-while-down'))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the event raised while Redis was down never reached the stream');
  }, 30_000);
});
