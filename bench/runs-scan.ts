// runs.list over a 100,000-run history: how long each filter takes and the longest pause of the
// event loop while it runs (the scan works in ~8 ms slices; a GC pause shows here too).
// `npm run bench:runs-scan`; start with `node --trace-gc` to see which pauses are the collector's.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runIdAt } from '../src/core/runs.ts';
import type { FinishedRun } from '../src/core/runs.ts';
import { startBenchService } from './bench-service.ts';

const RUNS = 100_000;
const BATCH = 256;
const start = Date.now();

// Echo calls over HTTP, a hook's run each 100, and one run of a hook's step at the very start.
function runAt(i: number): FinishedRun {
  const id = runIdAt(start + i);
  const base: FinishedRun = {
    id,
    parent_id: null,
    root_id: id,
    caller: null,
    trigger: null,
    error_code: null,
    errors: [],
    replay_of: null,
    kind: 'action',
    name: 'utils.echo',
    transport: 'http',
    args: { text: `message ${i}`, url: `https://example.com/?page=${i}` },
    started_at: start + i,
    duration_ms: 0.5,
    outcome: 'ok',
    output: { text: `message ${i}` },
  };
  if (i === 0)
    return { ...base, transport: 'hook', trigger: { hook: 'Door', event_id: 'e0' }, args: {} };
  if (i % 100 === 50) return { ...base, kind: 'hook', name: 'Door', transport: 'hook' };
  return base;
}

const FILTERS: Record<string, unknown>[] = [
  { transport: 'hook', action: 'utils.echo' }, // contexts skip all but the oldest batch
  { text: 'message 7' }, // found in the newest batches
  { text: '"runs"' }, // in every batch's text, in no run: every batch is decoded
  { outcome: 'failed' }, // skipped by SQLite
  { transport: 'hook', limit: 500 },
];

const pipit = await startBenchService({}, undefined, 'runs: {max_runs: 1000000}');
try {
  const store = pipit.service.store.runs;
  for (let i = 0; i < RUNS; i += BATCH) {
    const batch: FinishedRun[] = [];
    for (let j = i; j < Math.min(i + BATCH, RUNS); j++) batch.push(runAt(j));
    store.insert(batch, 16384);
  }
  console.log(`${store.count()} runs stored`);
  const worst = new Map<string, number>();
  for (let round = 0; round < 5; round++)
    for (const args of FILTERS) {
      const delay = monitorEventLoopDelay({ resolution: 2 });
      delay.enable();
      const t0 = performance.now();
      const res = await pipit.service.execute(
        { type: 'request', action: 'runs.list', args },
        { transport: 'bench' },
      );
      const ms = performance.now() - t0;
      delay.disable();
      const found = (res.message.response.output as { runs?: unknown[] } | null)?.runs?.length;
      const key = JSON.stringify(args);
      worst.set(key, Math.max(worst.get(key) ?? 0, delay.max / 1e6));
      if (round === 4)
        console.log(
          `${key.padEnd(44)} ${ms.toFixed(0).padStart(5)} ms, ${found} found, longest pause over 5 rounds ${worst.get(key)!.toFixed(1)} ms`,
        );
    }
} finally {
  await pipit.close();
}
