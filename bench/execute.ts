import { join } from 'node:path';
import { load, median, row, spawnTarget, stopTarget } from './lib.ts';
import type { Figures } from './lib.ts';

/** `POST /execute` (utils.echo, JWT) against a bare fastify route, alternated in one run. */
export async function benchExecute(opts: {
  seconds: number;
  rounds: number;
  connections: number;
}): Promise<Record<string, unknown>> {
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
    const runs: { pipit: Figures[]; bare: Figures[] } = { pipit: [], bare: [] };
    // Warm both up (JIT, caches) before measuring.
    await load({
      url: `${info.pipitUrl}/execute`,
      body,
      headers: { authorization: `Bearer ${info.token}` },
      seconds: 1,
      connections: opts.connections,
    });
    await load({
      url: `${info.bareUrl}/bare`,
      body,
      headers: {},
      seconds: 1,
      connections: opts.connections,
    });
    for (let i = 0; i < opts.rounds; i++) {
      runs.bare.push(
        await load({
          url: `${info.bareUrl}/bare`,
          body,
          headers: {},
          seconds: opts.seconds,
          connections: opts.connections,
        }),
      );
      runs.pipit.push(
        await load({
          url: `${info.pipitUrl}/execute`,
          body,
          headers: { authorization: `Bearer ${info.token}` },
          seconds: opts.seconds,
          connections: opts.connections,
        }),
      );
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
    console.log('\n## POST /execute (utils.echo, JWT auth) vs a bare fastify JSON route');
    console.log(row('bare fastify route', bare));
    console.log(row('pipit /execute', pipit));
    console.log(`ratio (pipit / bare): ${ratio.toFixed(2)}   (goal >= 0.8)`);
    return { pipit, bare, ratio };
  } finally {
    await stopTarget(child);
  }
}
