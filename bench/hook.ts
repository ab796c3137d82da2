import { join } from 'node:path';
import { abCompare } from './ab.ts';
import type { Comparison } from './ab.ts';
import { loadHttp } from './http-load.ts';
import { spawnTarget, stopTarget } from './lib.ts';

/**
 * `GET /hook/bench` with a script listener against a bare fastify route answering the same JSON,
 * A/B/A/B in one run. Its floor is the bare route plus what issue 14 requires of every web hook:
 * its event made and its run recorded.
 *
 * @example
 * await benchHook({ seconds: 3, pairs: 3, connections: 50 });
 */
export async function benchHook(opts: {
  seconds: number;
  pairs: number;
  connections: number;
}): Promise<Comparison> {
  const { child, info } = await spawnTarget<{ pipitUrl: string; bareUrl: string }>(
    join(import.meta.dirname, 'targets.ts'),
    0,
  );
  try {
    const leg = (label: string, url: string) => ({
      label,
      run: (seconds: number) =>
        loadHttp({ url, method: 'GET', seconds, connections: opts.connections }, child.pid!),
    });
    return await abCompare({
      title: 'GET /hook/<name> (script listener) vs a bare fastify route',
      metric: 'rps',
      pairs: opts.pairs,
      seconds: opts.seconds,
      // Round three: >= 0.65 of the bare route, and >= 0.9 of the floor.
      goal: 0.65,
      floorGoal: 0.9,
      baseline: leg('bare fastify route', `${info.bareUrl}/bare-hook`),
      subject: leg('pipit /hook/bench', `${info.pipitUrl}/hook/bench`),
      floor: leg('bare route + event + recorded run', `${info.bareUrl}/bare-hook-recorded`),
    });
  } finally {
    await stopTarget(child);
  }
}
