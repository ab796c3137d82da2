import { join } from 'node:path';
import { abCompare } from './ab.ts';
import type { Comparison } from './ab.ts';
import { loadHttp } from './http-load.ts';
import { spawnTarget, stopTarget } from './lib.ts';

/**
 * `POST /execute` (utils.echo, JWT) against a bare fastify route that parses the same body and
 * verifies the same JWT (verify-once cache), A/B/A/B in one run. After each pair: the floor, that
 * route plus the run issue 14 records for every request, and the bare route without authentication
 * for reference.
 *
 * @example
 * await benchExecute({ seconds: 3, pairs: 3, connections: 50 });
 */
export async function benchExecute(opts: {
  seconds: number;
  pairs: number;
  connections: number;
}): Promise<Comparison> {
  const { child, info } = await spawnTarget<{ pipitUrl: string; bareUrl: string; token: string }>(
    join(import.meta.dirname, 'targets.ts'),
    0,
  );
  try {
    const body = JSON.stringify({
      type: 'request',
      action: 'utils.echo',
      args: { text: 'hello', n: 1 },
    });
    const authorization = `Bearer ${info.token}`;
    const leg = (label: string, url: string, headers: Record<string, string> = {}) => ({
      label,
      run: (seconds: number) =>
        loadHttp({ url, body, headers, seconds, connections: opts.connections }, child.pid!),
    });
    return await abCompare({
      title: 'POST /execute (utils.echo, JWT) vs a bare fastify route verifying the same JWT',
      metric: 'rps',
      pairs: opts.pairs,
      seconds: opts.seconds,
      goal: 0.85,
      baseline: leg('bare fastify + JWT (verify-once cache)', `${info.bareUrl}/bare-jwt`, {
        authorization,
      }),
      subject: leg('pipit /execute', `${info.pipitUrl}/execute`, { authorization }),
      floor: leg('bare fastify + JWT + recorded run', `${info.bareUrl}/bare-jwt-recorded`, {
        authorization,
      }),
      references: [leg('bare fastify, no auth (reference)', `${info.bareUrl}/bare`)],
    });
  } finally {
    await stopTarget(child);
  }
}
