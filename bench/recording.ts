import { join } from 'node:path';
import { abCompare } from './ab.ts';
import type { Comparison, Leg, Measured } from './ab.ts';
import { loadHttp } from './http-load.ts';
import { spawnTarget, stopTarget } from './lib.ts';

interface Target {
  recordingUrl: string;
  recordingToken: string;
  plainUrl: string;
  plainToken: string;
}

const TARGET = join(import.meta.dirname, 'recording-target.ts');
const BODY = JSON.stringify({
  type: 'request',
  action: 'utils.echo',
  args: { text: 'hello', n: 1 },
});
/**
 * Unmeasured load on a fresh process before its leg, counted in requests served rather than
 * seconds: start-up, JIT, and the history's first WAL checkpoint, whose thread starts then (a
 * one-time ~30-70 ms of CPU, not a cost per request). The history asks for it after 4 MB of
 * batches, ~60,000 runs of ~70 bytes: a fixed 3 s covered that at 20k req/s, but on a slower
 * machine, or with a more compact history, it fell inside the measured leg.
 */
const FRESH_WARMUP_REQUESTS = 120_000;
/** ...within this long at most (a machine too slow for that is measured warmed this long). */
const FRESH_WARMUP_MAX_SECONDS = 15;
const FRESH_WARMUP_STEP_SECONDS = 2;

const load = (url: string, token: string, seconds: number, connections: number, pid: number) =>
  loadHttp(
    {
      url: `${url}/execute`,
      body: BODY,
      headers: { authorization: `Bearer ${token}` },
      seconds,
      connections,
    },
    pid,
  );

async function warmUp(url: string, token: string, connections: number, pid: number) {
  const step = FRESH_WARMUP_STEP_SECONDS;
  let served = 0;
  for (
    let spent = 0;
    served < FRESH_WARMUP_REQUESTS && spent < FRESH_WARMUP_MAX_SECONDS;
    spent += step
  )
    served += (await load(url, token, step, connections, pid)).rps * step;
}

// One service in a process of its own, started for this leg only, warmed, measured, stopped.
function freshLeg(label: string, record: boolean, connections: number): Leg {
  return {
    label,
    async run(seconds: number): Promise<Measured> {
      const { child, info } = await spawnTarget<Target>(TARGET, 0, {
        RECORDING_TARGET_ONLY: String(record),
      });
      try {
        const url = record ? info.recordingUrl : info.plainUrl;
        const token = record ? info.recordingToken : info.plainToken;
        await warmUp(url, token, connections, child.pid!);
        return await load(url, token, seconds, connections, child.pid!);
      } finally {
        await stopTarget(child);
      }
    },
  };
}

/**
 * What the run history costs: `POST /execute` (utils.echo, JWT) with `runs.record: true` against
 * `runs.record: false`, measured two ways, A/B/A/B. The budget (round three, after the goal of
 * ≤ 5% of the throughput was measured at ~6% with every lever tried): a recorded run costs the
 * server at most 2 µs of CPU, printed after each comparison from its legs' CPU per request.
 *
 * - `shared`: both services in one process on one core. No process-to-process offset, but the two
 *   share their code, heap and JIT state, which may hide part of what the history costs.
 * - `fresh`: each leg a new process with one service (warmed first), so nothing is shared; each
 *   pair carries the offset of its two processes (a few %), which the median over pairs averages.
 *
 * @example
 * const { shared, fresh } = await benchRecording({ seconds: 3, pairs: 3, connections: 50 });
 */
export async function benchRecording(opts: {
  seconds: number;
  pairs: number;
  connections: number;
  /** Only the one-process comparison (no fresh processes). */
  sharedOnly?: boolean;
  /** Switch which leg goes first every pair (see `abCompare`). */
  alternate?: boolean;
}): Promise<{ shared: Comparison; fresh?: Comparison }> {
  const { child, info } = await spawnTarget<Target>(TARGET, 0);
  let shared: Comparison;
  try {
    const leg = (label: string, url: string, token: string): Leg => ({
      label,
      run: (seconds) => load(url, token, seconds, opts.connections, child.pid!),
    });
    shared = await abCompare({
      title:
        'POST /execute with the run history recording vs without (runs.record: false), one process',
      metric: 'rps',
      pairs: opts.pairs,
      seconds: opts.seconds,
      alternate: opts.alternate,
      baseline: leg('runs.record: false', info.plainUrl, info.plainToken),
      subject: leg('runs.record: true', info.recordingUrl, info.recordingToken),
    });
    printRunCost(shared);
  } finally {
    await stopTarget(child);
  }
  if (opts.sharedOnly) return { shared };
  const fresh = await abCompare({
    title: `The same, each leg a fresh process with one service (warmed by ${FRESH_WARMUP_REQUESTS.toLocaleString('en')} requests each)`,
    metric: 'rps',
    pairs: opts.pairs,
    seconds: opts.seconds,
    warmupSeconds: 0,
    baseline: freshLeg('runs.record: false, fresh process', false, opts.connections),
    subject: freshLeg('runs.record: true, fresh process', true, opts.connections),
  });
  printRunCost(fresh);
  return { shared, fresh };
}

/** The budget of one recorded run, in µs of the server's CPU. */
export const RUN_BUDGET_US = 2;

/**
 * What a recorded run costs the server, per pair: its CPU per request with the history on, minus
 * without (both legs of the pair, same process or not); the median against {@link RUN_BUDGET_US}.
 *
 * @example
 * printRunCost(await abCompare({ ... })); // a recorded run: median 1.6 µs of CPU ... budget <= 2 µs: met
 */
export function printRunCost(c: Comparison): number {
  const [base, subject] = Object.values(c.legs) as [Measured[], Measured[]];
  const us = (m: Measured) => ((m.cpu.server ?? NaN) * 1e6) / m.rps;
  const costs = subject.map((m, i) => us(m) - us(base[i]!));
  const sorted = [...costs].sort((a, b) => a - b);
  const median = (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
  console.log(
    `a recorded run: median ${median.toFixed(2)} µs of server CPU (pairs ${costs.map((x) => x.toFixed(2)).join(' ')})   budget <= ${RUN_BUDGET_US} µs: ${median <= RUN_BUDGET_US ? 'met' : 'NOT MET'}`,
  );
  return median;
}

/**
 * `--long` (`npm run bench:recording-long`): the one-process comparison alone, 200 pairs of 2 s in
 * alternating order, ~14 minutes. A pair of 3 s legs on a shared machine reads anywhere in ±20%,
 * so 5 or 8 pairs leave an interval that holds the goal; 200 narrow it to ~±1.5%.
 */
const LONG = { pairs: 200, seconds: 2 };

// `node bench/recording.ts` runs this benchmark alone.
if (import.meta.main) {
  const { benchOptions } = await import('./options.ts');
  const long = process.argv.includes('--long');
  const { seconds, pairs } = long ? LONG : benchOptions();
  await benchRecording({ seconds, pairs, connections: 50, sharedOnly: long, alternate: long });
}
