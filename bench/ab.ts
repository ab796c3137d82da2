import type { CpuShares } from './cpu.ts';
import { generatorBound } from './cpu.ts';
import { median, medianInterval, quantile } from './lib.ts';
import type { MedianInterval } from './lib.ts';

/** A median and the range around it. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

const spread = (values: number[]): Spread => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
});

// Server CPU time (in core-µs) per request of one leg.
const usPerRequest = (m: Measured) => ((m.cpu.server ?? NaN) * 1e6) / m.rps;

/** One leg's figures: throughput, latency, and who used how much CPU meanwhile. */
export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Share of a core each process used ("server", "generator"); 1 is 100%. */
  cpu: CpuShares;
  /** What drove the load: "wrk", "autocannon", "node (ws)". */
  generator: string;
  /**
   * Every latency of the leg (ms), for a p99 comparison pooled over all its legs; dropped once
   * pooled, so that results files stay small.
   */
  samples?: Float64Array | undefined;
}

/** A p99 comparison's p99s over every sample of all legs of each side. */
export interface Pooled {
  baseline: number;
  subject: number;
  /** subject / baseline. */
  ratio: number;
  /** Samples per side. */
  samples: { baseline: number; subject: number };
}

/** A leg of a comparison: runs its load for `seconds` and measures it. */
export interface Leg {
  label: string;
  run: (seconds: number) => Promise<Measured>;
}

/** What a comparison compares: throughput (higher is better) or p99 latency (lower is better). */
export type Metric = 'rps' | 'p99';

/** The outcome of {@link abCompare}. */
export interface Comparison {
  title: string;
  metric: Metric;
  generator: string;
  /** subject / baseline per pair, in run order. */
  ratios: number[];
  ratio: Spread;
  /** Where the true median ratio lies, from the pairs (see `medianInterval`). */
  interval: MedianInterval;
  /**
   * The server's CPU time per request, baseline / subject, per pair: what the throughput ratio
   * would be if both were CPU-bound. Less sensitive than throughput to other processes taking
   * the server's core on a shared machine.
   */
  costRatios: number[];
  costRatio: Spread;
  goal?: number;
  met?: boolean;
  legs: Record<string, Measured[]>;
  /** Baseline legs in which the generator, not the server, was the limit. */
  generatorBoundLegs: number;
  /** For a p99 comparison whose legs kept their samples: the goal is judged on this. */
  pooled?: Pooled;
  /** The floor leg's throughput over the baseline's, per pair (see `abCompare`'s `floor`). */
  floor?: Spread & { ratios: number[] };
  /** The subject's throughput over the floor's, per pair, and its goal when one was given. */
  ofFloor?: Spread & { ratios: number[]; goal?: number; met?: boolean };
}

// One side's p99 over the samples of all its legs (then dropped from the legs).
function pooledP99(list: Measured[]): { p99: number; count: number } | undefined {
  if (!list.every((m) => m.samples)) return undefined;
  const all = new Float64Array(list.reduce((n, m) => n + m.samples!.length, 0));
  let at = 0;
  for (const m of list) {
    all.set(m.samples!, at);
    at += m.samples!.length;
    delete m.samples;
  }
  return { p99: quantile(all.sort(), 0.99), count: all.length };
}

/**
 * Runs a subject against its baseline as A/B/A/B... in one run (`pairs` pairs, each leg
 * `seconds` long, after a 1 s warm-up of each) so that machine noise hits both alike; the
 * reference legs, if any, run after each pair and are printed for context. Prints a table with
 * each leg's median figures and CPU use, the median subject/baseline ratio with its spread
 * (min–max over the pairs), and a loud warning when the baseline was generator-bound.
 *
 * @example
 * const result = await abCompare({
 *   title: 'POST /execute', metric: 'rps', goal: 0.85, pairs: 3, seconds: 3,
 *   baseline: { label: 'bare', run: (s) => loadHttp({ ...load, seconds: s }, pid) },
 *   subject: { label: 'pipit', run: (s) => loadHttp({ ...pipitLoad, seconds: s }, pid) },
 * });
 */
export async function abCompare(opts: {
  title: string;
  metric: Metric;
  pairs: number;
  seconds: number;
  baseline: Leg;
  subject: Leg;
  references?: Leg[];
  /**
   * The baseline plus only what the subject must do besides (say, record its run): measured after
   * each pair like a reference, with its throughput ratio to the baseline. No subject that does
   * that work can read above it, so it shows how much of a goal is left to the rest of the path.
   */
  floor?: Leg;
  goal?: number;
  /** The least subject / floor throughput ratio wanted (e.g. 0.9: within 10% of the floor). */
  floorGoal?: number;
  warmupSeconds?: number;
  /**
   * Switch which of the two goes first every pair (A/B, B/A, A/B...), so that a leg that gains or
   * loses by its place (following the other, or by a drift within the pair) is not always the
   * same one. For long runs that aim at a narrow interval.
   */
  alternate?: boolean;
}): Promise<Comparison> {
  const after = [...(opts.floor ? [opts.floor] : []), ...(opts.references ?? [])];
  const all = [opts.baseline, opts.subject, ...after];
  const warmup = opts.warmupSeconds ?? 1;
  if (warmup > 0) for (const leg of all) await leg.run(warmup);
  const legs: Record<string, Measured[]> = Object.fromEntries(all.map((l) => [l.label, []]));
  const ratios: number[] = [];
  const costRatios: number[] = [];
  for (let i = 0; i < opts.pairs; i++) {
    const subjectFirst = opts.alternate === true && i % 2 === 1;
    const first = await (subjectFirst ? opts.subject : opts.baseline).run(opts.seconds);
    const second = await (subjectFirst ? opts.baseline : opts.subject).run(opts.seconds);
    const [a, b] = subjectFirst ? [second, first] : [first, second];
    legs[opts.baseline.label]!.push(a);
    legs[opts.subject.label]!.push(b);
    ratios.push(b[opts.metric] / a[opts.metric]);
    costRatios.push(usPerRequest(a) / usPerRequest(b));
    for (const ref of after) legs[ref.label]!.push(await ref.run(opts.seconds));
  }
  const ratio = spread(ratios);
  const generatorBoundLegs = legs[opts.baseline.label]!.filter((m) => generatorBound(m.cpu)).length;
  // A leg's p99 can rest on a handful of events (a fan-out event is a thousand samples at once):
  // the p99 of every sample of the run, side by side, is what the goal is judged on when kept.
  const base = opts.metric === 'p99' ? pooledP99(legs[opts.baseline.label]!) : undefined;
  const subj = opts.metric === 'p99' ? pooledP99(legs[opts.subject.label]!) : undefined;
  const pooled: Pooled | undefined =
    base && subj
      ? {
          baseline: base.p99,
          subject: subj.p99,
          ratio: subj.p99 / base.p99,
          samples: { baseline: base.count, subject: subj.count },
        }
      : undefined;
  const met =
    opts.goal === undefined
      ? undefined
      : opts.metric === 'rps'
        ? ratio.median >= opts.goal
        : (pooled?.ratio ?? ratio.median) <= opts.goal;
  const floorRatios = opts.floor
    ? legs[opts.floor.label]!.map((m, i) => m.rps / legs[opts.baseline.label]![i]!.rps)
    : undefined;
  const ofFloorRatios = floorRatios?.map((f, i) => ratios[i]! / f);
  const ofFloor = ofFloorRatios && {
    ...spread(ofFloorRatios),
    ratios: ofFloorRatios,
    ...(opts.floorGoal === undefined
      ? {}
      : { goal: opts.floorGoal, met: spread(ofFloorRatios).median >= opts.floorGoal }),
  };
  const result: Comparison = {
    title: opts.title,
    metric: opts.metric,
    generator: legs[opts.baseline.label]![0]!.generator,
    ratios,
    ratio,
    interval: medianInterval(ratios),
    costRatios,
    costRatio: spread(costRatios),
    ...(opts.goal === undefined ? {} : { goal: opts.goal, met }),
    legs,
    generatorBoundLegs,
    ...(pooled ? { pooled } : {}),
    ...(floorRatios ? { floor: { ...spread(floorRatios), ratios: floorRatios } } : {}),
    ...(ofFloor ? { ofFloor } : {}),
  };
  print(result, opts, all);
  return result;
}

const pct = (n: number) => (Number.isNaN(n) ? '   ?' : `${(n * 100).toFixed(0).padStart(3)}%`);
const num = (n: number, digits: number, width: number) => n.toFixed(digits).padStart(width);

function print(
  r: Comparison,
  opts: { pairs: number; seconds: number; baseline: Leg },
  all: Leg[],
): void {
  console.log(
    `\n## ${r.title}\n   (${r.generator}; ${opts.pairs} A/B pairs of ${opts.seconds} s; server on core 0, generator on core 1; medians)`,
  );
  console.log(
    `${'leg'.padEnd(40)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  server gen.  core0 core1  server µs/req`,
  );
  let crowded = 0;
  for (const leg of all) {
    const list = r.legs[leg.label]!;
    const m = (f: (x: Measured) => number | undefined) => median(list.map((x) => f(x) ?? NaN));
    const errors = list.reduce((n, x) => n + x.errors, 0);
    const server = m((x) => x.cpu.server);
    crowded += list.filter((x) => (x.cpu.core0 ?? 0) - (x.cpu.server ?? 0) > 0.15).length;
    console.log(
      `${leg.label.padEnd(40)} ${num(
        m((x) => x.rps),
        0,
        8,
      )} ${num(
        m((x) => x.p50),
        2,
        7,
      )} ${num(
        m((x) => x.p99),
        2,
        7,
      )}   ${pct(server)} ${pct(m((x) => x.cpu.generator))}  ${pct(m((x) => x.cpu.core0))}  ${pct(m((x) => x.cpu.core1))}  ${num(
        m((x) => ((x.cpu.server ?? NaN) * 1e6) / x.rps),
        1,
        8,
      )}${errors ? `   errors ${errors}` : ''}`,
    );
  }
  const what = r.metric === 'rps' ? 'throughput' : 'p99';
  const goal =
    r.goal === undefined
      ? ''
      : `   goal ${r.metric === 'rps' ? '>=' : '<='} ${r.goal}: ${r.met ? 'met' : 'NOT MET'}`;
  console.log(
    `${what} ratio: median ${r.ratio.median.toFixed(2)} (spread ${r.ratio.min.toFixed(2)}–${r.ratio.max.toFixed(2)}; pairs ${r.ratios.map((x) => x.toFixed(2)).join(' ')})${r.pooled ? '' : goal}`,
  );
  if (!r.pooled) console.log(intervalLine(r));
  if (r.pooled) {
    const p = r.pooled;
    console.log(
      `p99 over every sample of the run: baseline ${p.baseline.toFixed(2)} ms (${p.samples.baseline}), subject ${p.subject.toFixed(2)} ms (${p.samples.subject}): ratio ${p.ratio.toFixed(2)}${goal}`,
    );
  }
  const c = r.costRatio;
  console.log(
    `server CPU-cost ratio (baseline µs/req ÷ subject µs/req): median ${c.median.toFixed(2)} (spread ${c.min.toFixed(2)}–${c.max.toFixed(2)})`,
  );
  if (r.floor) {
    const f = r.floor;
    const below = r.goal !== undefined && r.metric === 'rps' && f.median < r.goal;
    console.log(
      `floor (the baseline plus only the subject's required extra work) / baseline: median ${f.median.toFixed(2)} (spread ${f.min.toFixed(2)}–${f.max.toFixed(2)})${below ? `: below the goal of ${r.goal} before the rest of the path runs` : ''}`,
    );
  }
  if (r.ofFloor) {
    const o = r.ofFloor;
    const goal = o.goal === undefined ? '' : `   goal >= ${o.goal}: ${o.met ? 'met' : 'NOT MET'}`;
    console.log(
      `subject / floor: median ${o.median.toFixed(2)} (spread ${o.min.toFixed(2)}–${o.max.toFixed(2)}; pairs ${o.ratios.map((x) => x.toFixed(2)).join(' ')})${goal}`,
    );
  }
  if (crowded)
    console.log(
      `note: in ${crowded} legs other processes used more than 15% of core 0 (shared machine): noisy`,
    );
  if (r.generatorBoundLegs) {
    const bar = '!'.repeat(96);
    console.log(
      `${bar}\n!!! WARNING: THE BASELINE WAS GENERATOR-BOUND in ${r.generatorBoundLegs} of ${opts.pairs} legs: the\n` +
        `!!! generator's core sat at ~100% while the server's did not. The baseline's real capacity\n` +
        `!!! is higher than measured, so the ratio above is flattered toward 1.0.\n${bar}`,
    );
  }
}

/**
 * The median ratio's confidence interval, and whether it settles the goal: a median a little
 * over or under the goal says nothing when the interval reaches across it.
 *
 * @example
 * intervalLine(comparison); // "the median's 94% interval over 5 pairs: 0.83–1.05: ..."
 */
export function intervalLine(
  r: Pick<Comparison, 'interval' | 'ratios' | 'goal' | 'metric'>,
): string {
  const { low, high, coverage } = r.interval;
  const head = `the median's ${Math.floor(coverage * 100)}% interval over ${r.ratios.length} pairs: ${low.toFixed(2)}–${high.toFixed(2)}`;
  const goal = r.goal;
  if (goal === undefined) return head;
  if (coverage < 0.9) return `${head}: too few pairs to settle the goal either way`;
  // Throughput must reach the goal; a p99 ratio must stay at or under it.
  const met = r.metric === 'rps' ? low >= goal : high <= goal;
  const notMet = r.metric === 'rps' ? high < goal : low > goal;
  if (met || notMet) {
    const side =
      r.metric === 'rps' ? (met ? 'at or above' : 'below') : met ? 'at or below' : 'above';
    return `${head}: all ${side} the goal (${goal}), so it is ${met ? 'met' : 'not met'} beyond this run's noise`;
  }
  return `${head}: it holds the goal (${goal}), so these pairs cannot tell met from not met`;
}
