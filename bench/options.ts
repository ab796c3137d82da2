/** The options every load benchmark takes from the environment. */
export interface BenchOptions {
  /** Length of each measured leg (BENCH_SECONDS, default 5). */
  seconds: number;
  /** A/B pairs per comparison (BENCH_PAIRS, or the older BENCH_ROUNDS; default 3, at least 2). */
  pairs: number;
}

/**
 * Reads {@link BenchOptions} from the environment.
 *
 * @example
 * const { seconds, pairs } = benchOptions(); // BENCH_SECONDS=3 npm run bench -> seconds 3
 */
export function benchOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const seconds = Number(env.BENCH_SECONDS ?? 5);
  const pairs = Number(env.BENCH_PAIRS ?? env.BENCH_ROUNDS ?? 3);
  if (!(seconds > 0) || !(pairs >= 1))
    throw new Error('BENCH_SECONDS and BENCH_PAIRS: numbers > 0');
  return { seconds, pairs: Math.max(2, Math.round(pairs)) };
}
