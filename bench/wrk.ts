import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One HTTP load: what to send, for how long, over how many connections. */
export interface HttpLoad {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
}

/** What wrk's `done()` reports, in microseconds. */
interface WrkSummary {
  requests: number;
  duration_us: number;
  p50_us: number;
  p99_us: number;
  errors: number;
  non2xx: number;
}

let installed: boolean | undefined;

/**
 * True when the `wrk` binary is on the PATH (`scripts/system-deps.sh` installs it) and
 * BENCH_GENERATOR is not "autocannon" (which forces the fallback, to compare the two).
 *
 * @example
 * const generator = hasWrk() ? 'wrk' : 'autocannon';
 */
export function hasWrk(): boolean {
  installed ??=
    process.env.BENCH_GENERATOR !== 'autocannon' &&
    spawnSync('wrk', ['--version']).error === undefined;
  return installed;
}

// Every byte as a decimal escape: no quoting rule of Lua's to get wrong, whatever the body holds.
const luaString = (text: string) =>
  `"${[...Buffer.from(text, 'utf8')].map((b) => `\\${b}`).join('')}"`;

/**
 * The Lua script that sets the method, body and headers, and prints the figures as one JSON line
 * from `done()` (wrk's own text output has no p99 without --latency and no machine-readable form).
 */
export function wrkScript(load: HttpLoad): string {
  const method = load.method ?? 'POST';
  const headers: Record<string, string> =
    method === 'POST'
      ? { 'Content-Type': 'application/json', ...load.headers }
      : { ...load.headers };
  return [
    `wrk.method = ${luaString(method)}`,
    ...(load.body === undefined ? [] : [`wrk.body = ${luaString(load.body)}`]),
    ...Object.entries(headers).map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`),
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'\\nWRK_JSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d,"non2xx":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),',
    '    e.connect + e.read + e.write + e.timeout, e.status))',
    'end',
    '',
  ].join('\n');
}

/**
 * Starts wrk (one thread, pinned to `cpu` with taskset when there is one) on a load; `result`
 * resolves with its figures when it ends. `child.pid` is wrk's own (taskset execs it), for CPU
 * sampling.
 *
 * @example
 * const run = startWrk({ url: 'http://127.0.0.1:8008/healthz', method: 'GET', seconds: 3, connections: 50 }, 1);
 * const { rps, p99 } = await run.result;
 */
export function startWrk(
  load: HttpLoad,
  cpu: number | undefined,
): {
  child: ChildProcess;
  result: Promise<{ rps: number; p50: number; p99: number; errors: number }>;
} {
  const dir = mkdtempSync(join(tmpdir(), 'pipit-wrk-'));
  const script = join(dir, 'load.lua');
  writeFileSync(script, wrkScript(load));
  const args = [
    '-t1',
    `-c${load.connections}`,
    `-d${load.seconds}s`,
    '--timeout',
    '5s',
    '-s',
    script,
    load.url,
  ];
  const child =
    cpu === undefined
      ? spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('taskset', ['-c', String(cpu), 'wrk', ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const result = new Promise<{ rps: number; p50: number; p99: number; errors: number }>(
    (resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => {
        rmSync(dir, { recursive: true, force: true });
        const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
        if (code !== 0 || !line) return reject(new Error(`wrk failed (exit ${code}):\n${out}`));
        const s = JSON.parse(line.slice('WRK_JSON '.length)) as WrkSummary;
        resolve({
          rps: s.requests / (s.duration_us / 1e6),
          p50: s.p50_us / 1000,
          p99: s.p99_us / 1000,
          errors: s.errors + s.non2xx,
        });
      });
    },
  );
  return { child, result };
}
