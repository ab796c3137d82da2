import { join } from 'node:path';
import { compare, load, spawnTarget, stopTarget } from './lib.ts';

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
    return await compare({
      title: 'POST /execute (utils.echo, JWT auth) vs a bare fastify JSON route',
      rounds: opts.rounds,
      seconds: opts.seconds,
      goal: 0.8,
      baseline: {
        label: 'bare fastify route',
        run: (seconds) =>
          load({ url: `${info.bareUrl}/bare`, body, seconds, connections: opts.connections }),
      },
      subject: {
        label: 'pipit /execute',
        run: (seconds) =>
          load({
            url: `${info.pipitUrl}/execute`,
            body,
            headers: { authorization: `Bearer ${info.token}` },
            seconds,
            connections: opts.connections,
          }),
      },
    });
  } finally {
    await stopTarget(child);
  }
}
