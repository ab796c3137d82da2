// `node bench/cli.ts`: `pipit run utils.echo text=hi` end to end, as a one-off command with no
// service running (the CLI builds a service of its own in-process), with a config that has the
// HTTP backend configured as a real one would, on a workdir made by a first, unmeasured run. Median and range of the wall time and of the CPU
// time (steadier on a shared machine) over BENCH_CLI_RUNS runs (default 7, at least 3), of the
// built code in a private copy (see bench/startup.ts). Goal: <= 0.25 s.
//
// Options: BENCH_STARTUP_ENTRY=checkout runs the checkout's bin/pipit.js as it is.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './lib.ts';
import { buildCopy } from './startup.ts';

const ROOT = join(import.meta.dirname, '..');

/** One `pipit run`: wall time, and CPU time of the child (user + system, from its rusage). */
export interface CliRun {
  wallMs: number;
  cpuMs: number;
}

/**
 * A temporary folder with a config for {@link runOnce} (remove it after).
 *
 * @example
 * const dir = cliDir();
 */
export function cliDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pipit-cli-'));
  writeFileSync(
    join(dir, 'config.yaml'),
    'device_id: cli\nworkdir: ./data\nbackend.http:\n  port: 8008\n  bind_address: 127.0.0.1\n',
  );
  return dir;
}

/**
 * Runs `pipit run utils.echo text=hi` once in `dir` (see {@link cliDir}).
 *
 * @example
 * const { wallMs } = await runOnce(dir, root);
 */
export async function runOnce(dir: string, root = ROOT): Promise<CliRun> {
  // /usr/bin/time is not everywhere: the child's own CPU comes from a shell's `times`.
  const script = `"${process.execPath}" "${join(root, 'bin/pipit.js')}" run utils.echo text=hi --config config.yaml >out.json; status=$?; times; exit $status`;
  const started = performance.now();
  const child = spawn('sh', ['-c', script], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`pipit run failed (${code}):\n${out}`);
  // `times` prints the shell's and then its children's user and system times: "0m0.512s 0m0.061s".
  const lines = out.trim().split('\n');
  const children = lines[lines.length - 1]!.match(/(\d+)m([\d.]+)s/g) ?? [];
  const cpuMs = children
    .map((t) => /(\d+)m([\d.]+)s/.exec(t)!)
    .reduce((sum, m) => sum + (Number(m[1]) * 60 + Number(m[2])) * 1000, 0);
  return { wallMs, cpuMs };
}

/**
 * Runs {@link runOnce} `runs` times (after one warm-up) and prints the medians and ranges.
 *
 * @example
 * await benchCli({ runs: 7 });
 */
export async function benchCli(opts: {
  runs: number;
  root?: string;
}): Promise<{ runs: CliRun[]; wallMs: number; cpuMs: number }> {
  const dir = cliDir();
  const runs: CliRun[] = [];
  try {
    await runOnce(dir, opts.root); // creates the database and the JWT secret
    for (let i = 0; i < Math.max(3, opts.runs); i++) runs.push(await runOnce(dir, opts.root));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const wall = runs.map((r) => r.wallMs);
  const cpu = runs.map((r) => r.cpuMs);
  const result = { runs, wallMs: median(wall), cpuMs: median(cpu) };
  const range = (list: number[]) =>
    `${Math.min(...list).toFixed(0)}–${Math.max(...list).toFixed(0)}`;
  console.log(`\n## pipit run utils.echo, end to end (${runs.length} runs)`);
  console.log(
    `wall: median ${result.wallMs.toFixed(0)} ms (${range(wall)})   goal <= 250 ms\nCPU:  median ${result.cpuMs.toFixed(0)} ms (${range(cpu)})`,
  );
  return result;
}

if (import.meta.main) {
  const root = process.env.BENCH_STARTUP_ENTRY === 'checkout' ? undefined : buildCopy();
  try {
    await benchCli({
      runs: Number(process.env.BENCH_CLI_RUNS ?? 7),
      ...(root ? { root } : {}),
    });
  } finally {
    if (root) rmSync(root, { recursive: true, force: true });
  }
}
