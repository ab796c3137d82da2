// A probe loaded into a benchmarked server with `node --import <file>` (`npm run bench:peers
// --heap-spaces`): once a second, on the main thread only (an --import runs in every worker thread
// too, and a worker's heap is its own), it appends one JSON line to $BENCH_HEAP_FILE with the
// process's memoryUsage(), the size of each V8 heap space (new space, old space, code space...) and
// the garbage collections since the line before (count and pause time by kind). It is written out
// as plain JavaScript: importing a .ts file would load Node's type stripper, ~17 MB of RSS. Its
// timer does not keep the process alive; it adds a few hundred KB to the server it is loaded into.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = `import { appendFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_HEAP_FILE;
const MB = 1024 * 1024;
const round = (bytes) => Math.round((bytes / MB) * 100) / 100;
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark_compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak_callbacks',
};
let gc = {};

if (file && isMainThread) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = KINDS[entry.detail?.kind] ?? 'other';
      const seen = (gc[kind] ??= { count: 0, ms: 0 });
      seen.count++;
      seen.ms += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  const sample = () => {
    const usage = process.memoryUsage();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [s.space_name, { size: round(s.space_size), used: round(s.space_used_size) }]),
    );
    const line = {
      t: Math.round(performance.now()),
      rss: round(usage.rss),
      heapTotal: round(usage.heapTotal),
      heapUsed: round(usage.heapUsed),
      external: round(usage.external),
      arrayBuffers: round(usage.arrayBuffers),
      spaces,
      gc,
    };
    gc = {};
    appendFileSync(file, JSON.stringify(line) + '\\n');
  };
  setInterval(sample, 1000).unref();
}
`;

/**
 * Writes the probe into `dir` and returns the `node` options that load it and the environment
 * that tells it where to write (`dir/heap.jsonl`).
 *
 * @example
 * const probe = writeHeapProbe(dir);
 * spawn(process.execPath, [...probe.nodeOptions, 'server.js'], { env: { ...process.env, ...probe.env } });
 */
export function writeHeapProbe(dir: string): {
  nodeOptions: string[];
  env: Record<string, string>;
  file: string;
} {
  const script = join(dir, 'heap-probe.mjs');
  writeFileSync(script, SOURCE);
  const file = join(dir, 'heap.jsonl');
  return { nodeOptions: ['--import', script], env: { BENCH_HEAP_FILE: file }, file };
}
