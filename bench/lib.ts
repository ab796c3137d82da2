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

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
