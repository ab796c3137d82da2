import { join } from 'node:path';
import { compare, load, spawnTarget, stopTarget } from './lib.ts';

/** `GET /hook/bench` with a script listener against a bare fastify route answering the same JSON. */
export async function benchHook(opts: {
  seconds: number;
  rounds: number;
  connections: number;
}): Promise<Record<string, unknown>> {
  const { child, info } = await spawnTarget<{ pipitUrl: string; bareUrl: string }>(
    join(import.meta.dirname, 'targets.ts'),
    0,
  );
  try {
    const get = (url: string) => (seconds: number) =>
      load({ url, method: 'GET', seconds, connections: opts.connections });
    return await compare({
      title: 'GET /hook/<name> (script listener) vs a bare fastify route',
      rounds: opts.rounds,
      seconds: opts.seconds,
      baseline: { label: 'bare fastify route', run: get(`${info.bareUrl}/bare-hook`) },
      subject: { label: 'pipit /hook/bench', run: get(`${info.pipitUrl}/hook/bench`) },
    });
  } finally {
    await stopTarget(child);
  }
}
