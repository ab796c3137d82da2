import { join } from 'node:path';
import { load, median, row, spawnTarget, stopTarget } from './lib.ts';
import type { Figures } from './lib.ts';

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
    const hookUrl = `${info.pipitUrl}/hook/bench`;
    const bareUrl = `${info.bareUrl}/bare-hook`;
    const get = (url: string, seconds: number) =>
      load({ url, method: 'GET', seconds, connections: opts.connections });
    await get(hookUrl, 1);
    await get(bareUrl, 1);
    const runs: { pipit: Figures[]; bare: Figures[] } = { pipit: [], bare: [] };
    for (let i = 0; i < opts.rounds; i++) {
      runs.bare.push(await get(bareUrl, opts.seconds));
      runs.pipit.push(await get(hookUrl, opts.seconds));
    }
    const pick = (list: Figures[]): Figures => ({
      rps: median(list.map((f) => f.rps)),
      p50: median(list.map((f) => f.p50)),
      p99: median(list.map((f) => f.p99)),
      errors: list.reduce((n, f) => n + f.errors, 0),
    });
    const pipit = pick(runs.pipit);
    const bare = pick(runs.bare);
    const ratio = pipit.rps / bare.rps;
    console.log('\n## GET /hook/<name> (script listener) vs a bare fastify route');
    console.log(row('bare fastify route', bare));
    console.log(row('pipit /hook/bench', pipit));
    console.log(`ratio (pipit / bare): ${ratio.toFixed(2)}`);
    return { pipit, bare, ratio };
  } finally {
    await stopTarget(child);
  }
}
