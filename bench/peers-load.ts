// One HTTP load of `npm run bench:peers`: wrk pinned to the load core, the CPU of the server and
// of wrk itself sampled over the middle of the run, so that a leg limited by wrk shows.
import type { Measured } from './ab.ts';
import { generatorBound, sampleCpu } from './cpu.ts';
import { cpuWindow } from './http-load.ts';
import { hasWrk, startWrk } from './wrk.ts';
import type { HttpLoad } from './wrk.ts';

/** The core wrk runs on (and this process); the servers run on {@link SERVER_CPU}. */
export const LOAD_CPU = 0;
/** The core the servers run on. */
export const SERVER_CPU = 1;

/**
 * Throws with what to do when wrk is missing: this benchmark has no fallback generator, since
 * autocannon saturates its core before a fast server does.
 */
export function requireWrk(): void {
  if (!hasWrk())
    throw new Error(
      'npm run bench:peers needs wrk (scripts/system-deps.sh installs it; BENCH_GENERATOR=autocannon is not supported here)',
    );
}

/**
 * Runs one wrk load against a server and measures it.
 *
 * @example
 * const leg = await wrkLeg({ url, body, seconds: 5, connections: 50 }, server.pid);
 * leg.cpu.generator; // wrk's share of its core: near 1.0 means wrk, not the server, was the limit
 */
export async function wrkLeg(load: HttpLoad, serverPid: number): Promise<Measured> {
  const run = startWrk(load, LOAD_CPU);
  const cpu = sampleCpu(
    { server: serverPid, generator: run.child.pid! },
    ...cpuWindow(load.seconds),
  );
  const figures = await run.result;
  return { ...figures, cpu: await cpu, generator: 'wrk' };
}

/**
 * One line of a leg's figures, with a warning when wrk was the limit (its core ~100% while the
 * server's was not).
 *
 * @example
 * console.log(legLine('Node-RED hook', leg)); // "Node-RED hook   3909 req/s  p50 11.2 ms ..."
 */
export function legLine(label: string, m: Measured): string {
  const pct = (n: number | undefined) =>
    n === undefined || Number.isNaN(n) ? '  ?' : `${(n * 100).toFixed(0).padStart(3)}%`;
  const warn = generatorBound(m.cpu)
    ? '   !!! WRK-BOUND: wrk, not the server, was the limit (the server figure is a floor)'
    : '';
  const errors = m.errors ? `   errors ${m.errors}` : '';
  return `  ${label.padEnd(22)} ${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50.toFixed(2).padStart(6)} ms  p99 ${m.p99.toFixed(2).padStart(7)} ms  server ${pct(m.cpu.server)} wrk ${pct(m.cpu.generator)}  core ${SERVER_CPU} busy ${pct(m.cpu[`core${SERVER_CPU}`])}${errors}${warn}`;
}
