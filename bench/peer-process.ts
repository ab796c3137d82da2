// The servers of `npm run bench:peers` as processes: spawned pinned to a core, ready when a probe
// request first answers 200, measured from /proc, stopped.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpuMillis } from './cpu.ts';

/** The request that tells a server is up: the first 200 to it counts as the first answer. */
export interface Probe {
  path: string;
  method: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

/** How to start one server. */
export interface ServerSpec {
  name: string;
  /** Arguments of `node` (this process's Node). */
  args: string[];
  cwd: string;
  port: number;
  probe: Probe;
  /** Extra options of `node` (put before the script), e.g. `--import` of a heap probe. */
  nodeOptions?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
}

/** A started server. */
export interface RunningServer {
  spec: ServerSpec;
  pid: number;
  url: string;
  /** Spawn to the probe's first 200. */
  readyMs: number;
  /** The process's CPU time until then. */
  cpuMs: number;
  /** `performance.now()` at the first 200. */
  readyAt: number;
  stop(): Promise<void>;
}

/**
 * A free TCP port on loopback.
 *
 * @example
 * const port = await freePort();
 */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/**
 * A process's resident set (VmRSS) and its peak (VmHWM) in MB, from /proc/<pid>/status.
 *
 * @example
 * rss(child.pid!).rssMb; // 87.4
 */
export function rss(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Answers the probe once: true on a 200.
 *
 * @example
 * await probeOnce('http://127.0.0.1:8008', { path: '/healthz', method: 'GET' });
 */
export async function probeOnce(url: string, probe: Probe): Promise<boolean> {
  const init: RequestInit = {
    method: probe.method,
    headers: {
      ...(probe.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...probe.headers,
    },
    ...(probe.body === undefined ? {} : { body: probe.body }),
  };
  try {
    const res = await fetch(`${url}${probe.path}`, init);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Spawns a server with `taskset -c <cpu>` (taskset execs Node, so the pid is the server's), polls
 * its probe every 5 ms until it answers 200 (at most 60 s), and returns it running.
 *
 * @example
 * const server = await startServer(spec, 1);
 * await server.stop();
 */
export async function startServer(
  spec: ServerSpec,
  cpu: number | undefined,
): Promise<RunningServer> {
  const nodeArgs = [...(spec.nodeOptions ?? []), ...spec.args];
  const options = {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
  };
  const started = performance.now();
  const child =
    cpu === undefined
      ? spawn(process.execPath, nodeArgs, options)
      : spawn('taskset', ['-c', String(cpu), process.execPath, ...nodeArgs], options);
  let output = '';
  const keep = (c: Buffer) => (output = (output + c.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${spec.port}`;
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`${spec.name} exited (${child.exitCode}) before answering:\n${output}`);
      if (performance.now() - started > 60_000)
        throw new Error(`${spec.name}: no 200 from ${spec.probe.path} in 60 s:\n${output}`);
      if (await probeOnce(url, spec.probe)) break;
      await sleep(5);
    }
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  const readyAt = performance.now();
  return {
    spec,
    pid: child.pid!,
    url,
    readyMs: readyAt - started,
    cpuMs: cpuMillis(child.pid!),
    readyAt,
    stop: () => stopChild(child),
  };
}
