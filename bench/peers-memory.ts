// The memory part of `npm run bench:peers`: one server's resident memory over a life of idle, load
// and idle again, read from /proc/<pid>/status. With a heap file (the server started with
// bench/heap-probe.ts), each checkpoint also keeps V8's view: heap spaces, external memory, GCs.
import { existsSync, readFileSync } from 'node:fs';
import type { Measured } from './ab.ts';
import { rss, startServer } from './peer-process.ts';
import type { ServerSpec } from './peer-process.ts';
import { SERVER_CPU, wrkLeg } from './peers-load.ts';
import type { HttpLoad } from './wrk.ts';

/** The checkpoints of a memory run, in order. */
export const CHECKPOINTS = ['start', 'idle', 'loaded', 'recovered'] as const;
export type Checkpoint = (typeof CHECKPOINTS)[number];

/** One memory run of one server. */
export interface MemoryRun {
  /** VmRSS in MB at each checkpoint: 1 s after the first answer, at the end of the idle, right after the load, after the recovery. */
  rssMb: Record<Checkpoint, number>;
  /** VmHWM: the highest RSS of the process's life. */
  peakMb: number;
  load: Measured;
  /** What bench/heap-probe.ts wrote next after each checkpoint, when it ran. */
  heap?: Partial<Record<Checkpoint, HeapSample>>;
}

/** One line of bench/heap-probe.ts (sizes in MB). */
export interface HeapSample {
  t: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  spaces: Record<string, { size: number; used: number }>;
  gc: Record<string, { count: number; ms: number }>;
}

/** The timings of a memory run, in seconds. */
export interface MemoryTimes {
  /** From the first answer to the "idle" checkpoint, no load. */
  idle: number;
  /** The load's length. */
  load: number;
  /** From the load's end to the "recovered" checkpoint, no load. */
  recover: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
}

// The first sample the probe writes after now (it writes one a second).
async function nextSample(file: string): Promise<HeapSample | undefined> {
  const seen = lines(file).length;
  for (let waited = 0; waited < 2500; waited += 50) {
    const all = lines(file);
    if (all.length > seen) return JSON.parse(all[seen]!) as HeapSample;
    await sleep(50);
  }
  return undefined;
}

/**
 * Starts a fresh server pinned to the server core, and reads its RSS 1 s after its first answer,
 * `times.idle` s after it (no load), right after `times.load` s of `load`, and `times.recover` s
 * after that; then stops it. `heapFile` is where the server's heap probe writes, if it has one.
 *
 * @example
 * const run = await memoryRun(spec, { url, body, connections: 50 }, { idle: 60, load: 60, recover: 60 });
 * run.rssMb.loaded;
 */
export async function memoryRun(
  spec: ServerSpec,
  load: Omit<HttpLoad, 'seconds'>,
  times: MemoryTimes,
  heapFile?: string,
): Promise<MemoryRun> {
  const server = await startServer(spec, SERVER_CPU);
  const rssMb = {} as Record<Checkpoint, number>;
  const heap: Partial<Record<Checkpoint, HeapSample>> = {};
  const checkpoint = async (name: Checkpoint) => {
    rssMb[name] = rss(server.pid).rssMb;
    if (heapFile) {
      const sample = await nextSample(heapFile);
      if (sample) heap[name] = sample;
    }
  };
  try {
    await sleep(server.readyAt + 1000 - performance.now());
    await checkpoint('start');
    await sleep(server.readyAt + times.idle * 1000 - performance.now());
    await checkpoint('idle');
    const measured = await wrkLeg({ ...load, seconds: times.load }, server.pid);
    await checkpoint('loaded');
    const loadEnd = performance.now();
    await sleep(loadEnd + times.recover * 1000 - performance.now());
    await checkpoint('recovered');
    const { peakMb } = rss(server.pid);
    return { rssMb, peakMb, load: measured, ...(heapFile ? { heap } : {}) };
  } finally {
    await server.stop();
  }
}

/**
 * A checkpoint's heap sample as one line: RSS, heap used/total, new space and old space sizes,
 * external and array buffers, and the GCs of the second before.
 *
 * @example
 * heapLine(run.heap.loaded); // "rss 251.3  heap 31.2/52.0  new 16.0 (used 3.1)  old 28.4 ..."
 */
export function heapLine(s: HeapSample | undefined): string {
  if (!s) return '(no heap sample)';
  const space = (name: string) => s.spaces[name] ?? { size: NaN, used: NaN };
  const f = (n: number) => n.toFixed(1);
  const gcs = Object.entries(s.gc)
    .map(([kind, g]) => `${kind} ${g.count}×/${g.ms.toFixed(0)} ms`)
    .join(', ');
  const newSpace = space('new_space');
  const old = space('old_space');
  return (
    `rss ${f(s.rss)}  heap ${f(s.heapUsed)}/${f(s.heapTotal)}  new ${f(newSpace.size)} (used ${f(newSpace.used)})` +
    `  old ${f(old.size)} (used ${f(old.used)})  code ${f(space('code_space').size)}  large ${f(space('large_object_space').size)}` +
    `  external ${f(s.external)} (buffers ${f(s.arrayBuffers)})${gcs ? `  gc: ${gcs}` : ''}`
  );
}
