import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';

/**
 * Spawns a benchmark target script pinned to `cpu` (when taskset exists) and resolves with the
 * first JSON line it prints.
 */
export async function spawnTarget<T>(
  script: string,
  cpu: number,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcessWithoutNullStreams; info: T }> {
  const pinned = await hasTaskset();
  const cmd = pinned ? 'taskset' : process.execPath;
  const args = pinned ? ['-c', String(cpu), process.execPath, script] : [script];
  const child = spawn(cmd, args, { env: { ...process.env, PIPIT_LOG_LEVEL: 'warn', ...env } });
  child.stderr.on('data', (c: Buffer) => process.stderr.write(c));
  const rl = createInterface({ input: child.stdout });
  const [line] = (await once(rl, 'line')) as [string];
  return { child, info: JSON.parse(line) as T };
}

let tasksetKnown: boolean | undefined;
async function hasTaskset(): Promise<boolean> {
  if (tasksetKnown !== undefined) return tasksetKnown;
  const child = spawn('taskset', ['-c', '0', 'true']);
  const [code] = (await once(child, 'exit').catch(() => [1])) as [number];
  tasksetKnown = code === 0;
  return tasksetKnown;
}

/**
 * Runs `fn` with this process (and so every process it starts) allowed on all cores, then puts
 * its affinity back. `npm run bench` pins itself to the generator's core; a benchmark whose
 * servers cannot be pinned (the cluster's three instances and redis-server) would otherwise crowd
 * that one core with everything it starts. (All cores from os.cpus(): availableParallelism()
 * counts only the cores allowed now.)
 *
 * @example
 * await onAllCores(() => benchCluster({ seconds: 3 }));
 */
export async function onAllCores<T>(fn: () => Promise<T>): Promise<T> {
  if (!(await hasTaskset())) return fn();
  const pid = String(process.pid);
  const before = spawnSync('taskset', ['-p', '-c', pid], { encoding: 'utf8' });
  const previous = /:\s*(\S+)\s*$/.exec(before.stdout)?.[1];
  spawnSync('taskset', ['-a', '-p', '-c', `0-${cpus().length - 1}`, pid]);
  try {
    return await fn();
  } finally {
    if (previous) spawnSync('taskset', ['-a', '-p', '-c', previous, pid]);
  }
}

/** Stops a target spawned by {@link spawnTarget}. */
export async function stopTarget(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null) return;
  child.stdin.end();
  await once(child, 'exit');
}

/**
 * The `q` quantile of numbers sorted in ascending order (NaN when there are none).
 *
 * @example
 * quantile(Float64Array.from([1, 2, 3]).sort(), 0.99); // 3
 */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
}

/** A range that holds the true median of what was sampled with a known probability. */
export interface MedianInterval {
  low: number;
  high: number;
  /** The probability that the range holds the true median (0.9375 for the range of 5 values). */
  coverage: number;
}

/**
 * A confidence interval for the median that assumes nothing about the distribution: the k-th
 * smallest and k-th largest value, with k as large as keeps the coverage (the chance that the
 * true median lies between them, 1 - 2·P(Binomial(n, ½) < k)) at `level` or more. With 5 values
 * it is their whole range (93.75%); with 8, the 2nd to the 7th (93.0%); with fewer than 5, the
 * range, whose coverage is below 90% (4 values: 87.5%) and is reported as it is.
 *
 * @example
 * medianInterval([0.9, 1.0, 0.95, 0.8, 1.1]); // { low: 0.8, high: 1.1, coverage: 0.9375 }
 */
export function medianInterval(values: number[], level = 0.9): MedianInterval {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  // P(Binomial(n, ½) <= j) for j = 0, 1, ...: the chance that j or fewer values fall below the median.
  let below = 0;
  let term = 1; // C(n, j)
  let best = { k: 1, coverage: 1 - 2 / 2 ** n };
  for (let k = 1; k <= Math.floor(n / 2); k++) {
    below += term / 2 ** n; // P(at most k-1 below)
    term = (term * (n - k + 1)) / k;
    const coverage = 1 - 2 * below;
    if (coverage < level) break;
    best = { k, coverage };
  }
  return {
    low: sorted[best.k - 1] ?? NaN,
    high: sorted[n - best.k] ?? NaN,
    coverage: best.coverage,
  };
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
