import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

/** One load run's figures. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * Spawns a benchmark target script pinned to `cpu` (when taskset exists) and resolves with the
 * first JSON line it prints.
 */
export async function spawnTarget<T>(
  script: string,
  cpu: number,
): Promise<{ child: ChildProcessWithoutNullStreams; info: T }> {
  const pinned = await hasTaskset();
  const cmd = pinned ? 'taskset' : process.execPath;
  const args = pinned ? ['-c', String(cpu), process.execPath, script] : [script];
  const child = spawn(cmd, args, { env: { ...process.env, PIPIT_LOG_LEVEL: 'warn' } });
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

/** Stops a target spawned by {@link spawnTarget}. */
export async function stopTarget(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null) return;
  child.stdin.end();
  await once(child, 'exit');
}

/** Runs autocannon against one URL for `seconds` and returns its figures. */
export async function load(opts: {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
}): Promise<Figures> {
  const method = opts.method ?? 'POST';
  const result = await autocannon({
    url: opts.url,
    method,
    ...(opts.body === undefined ? {} : { body: opts.body }),
    headers:
      method === 'POST'
        ? { 'content-type': 'application/json', ...opts.headers }
        : { ...opts.headers },
    duration: opts.seconds,
    connections: opts.connections,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Prints one result row. */
export function row(label: string, f: Figures): string {
  return `${label.padEnd(34)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${f.p50.toFixed(1).padStart(5)} ms   p99 ${f.p99.toFixed(1).padStart(6)} ms${f.errors ? `   errors ${f.errors}` : ''}`;
}

/** The medians of several runs' figures (errors summed). */
export function summarize(list: Figures[]): Figures {
  return {
    rps: median(list.map((f) => f.rps)),
    p50: median(list.map((f) => f.p50)),
    p99: median(list.map((f) => f.p99)),
    errors: list.reduce((n, f) => n + f.errors, 0),
  };
}

/**
 * Measures a subject against its baseline: both warmed up, then alternated `rounds` times so that
 * machine noise hits both alike; prints a table and returns the medians and their ratio.
 */
export async function compare(opts: {
  title: string;
  rounds: number;
  baseline: { label: string; run: (seconds: number) => Promise<Figures> };
  subject: { label: string; run: (seconds: number) => Promise<Figures> };
  seconds: number;
  goal?: number;
}): Promise<{ baseline: Figures; subject: Figures; ratio: number }> {
  await opts.subject.run(1);
  await opts.baseline.run(1);
  const runs = { baseline: [] as Figures[], subject: [] as Figures[] };
  for (let i = 0; i < opts.rounds; i++) {
    runs.baseline.push(await opts.baseline.run(opts.seconds));
    runs.subject.push(await opts.subject.run(opts.seconds));
  }
  const baseline = summarize(runs.baseline);
  const subject = summarize(runs.subject);
  const ratio = subject.rps / baseline.rps;
  console.log(`\n## ${opts.title}`);
  console.log(row(opts.baseline.label, baseline));
  console.log(row(opts.subject.label, subject));
  console.log(`ratio: ${ratio.toFixed(2)}${opts.goal ? `   (goal >= ${opts.goal})` : ''}`);
  return { baseline, subject, ratio };
}
