import { join } from 'node:path';
import { abCompare } from './ab.ts';
import type { Comparison } from './ab.ts';
import { loadHttp } from './http-load.ts';
import { spawnTarget, stopTarget } from './lib.ts';

/**
 * What the run history costs: `POST /execute` (utils.echo, JWT) with `runs.record: true` against
 * the same service with `runs.record: false`, A/B/A/B in one run, both services in one process on
 * one core. Goal (issue 14): recording costs at most 5% of the throughput (ratio ≥ 0.95).
 *
 * @example
 * await benchRecording({ seconds: 3, pairs: 3, connections: 50 });
 */
export async function benchRecording(opts: {
  seconds: number;
  pairs: number;
  connections: number;
}): Promise<Comparison> {
  const { child, info } = await spawnTarget<{
    recordingUrl: string;
    recordingToken: string;
    plainUrl: string;
    plainToken: string;
  }>(join(import.meta.dirname, 'recording-target.ts'), 0);
  try {
    const body = JSON.stringify({
      type: 'request',
      action: 'utils.echo',
      args: { text: 'hello', n: 1 },
    });
    const leg = (label: string, url: string, token: string) => ({
      label,
      run: (seconds: number) =>
        loadHttp(
          {
            url: `${url}/execute`,
            body,
            headers: { authorization: `Bearer ${token}` },
            seconds,
            connections: opts.connections,
          },
          child.pid!,
        ),
    });
    return await abCompare({
      title: 'POST /execute with the run history recording vs without (runs.record: false)',
      metric: 'rps',
      pairs: opts.pairs,
      seconds: opts.seconds,
      goal: 0.95,
      baseline: leg('runs.record: false', info.plainUrl, info.plainToken),
      subject: leg('runs.record: true', info.recordingUrl, info.recordingToken),
    });
  } finally {
    await stopTarget(child);
  }
}
