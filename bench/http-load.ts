import autocannon from 'autocannon';
import type { Measured } from './ab.ts';
import { sampleCpu } from './cpu.ts';
import { hasWrk, startWrk } from './wrk.ts';
import type { HttpLoad } from './wrk.ts';

/** The core the load generator runs on; targets run on core 0 (see `spawnTarget`). */
export const GENERATOR_CPU = 1;

let warned = false;

/**
 * Drives one HTTP load with wrk (pinned to {@link GENERATOR_CPU}) or, when wrk is not installed,
 * with autocannon in this process after a printed warning; samples the CPU of the server process
 * and of the generator over the middle of the run.
 *
 * @example
 * const leg = await loadHttp({ url, body, seconds: 3, connections: 50 }, target.pid!);
 * console.log(leg.rps, leg.p99, leg.cpu.generator);
 */
export async function loadHttp(load: HttpLoad, serverPid: number): Promise<Measured> {
  const window = cpuWindow(load.seconds);
  if (hasWrk()) {
    const run = startWrk(load, GENERATOR_CPU);
    const cpu = sampleCpu({ server: serverPid, generator: run.child.pid! }, ...window);
    const figures = await run.result;
    return { ...figures, cpu: await cpu, generator: 'wrk' };
  }
  if (!warned) {
    warned = true;
    console.warn(
      '\n*** WARNING: wrk is not installed (scripts/system-deps.sh installs it), or BENCH_GENERATOR\n' +
        '*** is "autocannon": falling back to autocannon, which saturates its core before the\n' +
        '*** server does on small machines, so the ratios below drift toward 1.0.\n',
    );
  }
  const cpu = sampleCpu({ server: serverPid, generator: process.pid }, ...window);
  const method = load.method ?? 'POST';
  const result = await autocannon({
    url: load.url,
    method,
    ...(load.body === undefined ? {} : { body: load.body }),
    headers:
      method === 'POST'
        ? { 'content-type': 'application/json', ...load.headers }
        : { ...load.headers },
    duration: load.seconds,
    connections: load.connections,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpu: await cpu,
    generator: 'autocannon',
  };
}

/**
 * The window of a run whose CPU use is sampled: past the ramp-up, ending before the generator
 * exits.
 */
export function cpuWindow(seconds: number): [number, number] {
  const ms = seconds * 1000;
  return [Math.min(500, ms * 0.2), ms - Math.min(300, ms * 0.1)];
}
