// runs.list over a large history: filters that no batch can skip unparsed are scanned in slices
// with the event loop served between them, and still find matches in the oldest runs.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIdAt } from '../../../src/core/runs.ts';
import type { FinishedRun } from '../../../src/core/runs.ts';
import type { StoredRun } from '../../../src/store/runs.ts';
import { finishedRun } from '../../helpers/runs.ts';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

const RUNS = 100_000;
const BATCH = 256;
const MAX_PAUSE_MS = 1000;

// Most runs are echo calls over HTTP; every batch also holds a hook's run and its step (an echo
// with transport "hook"), so that `transport: hook, action: utils.echo` skips no batch unparsed: what
// the runs of every batch share could match, and only the oldest run, which has no parent, does.
function runAt(i: number, start: number): FinishedRun {
  const id = runIdAt(start + i);
  if (i === 0)
    return finishedRun({
      id,
      transport: 'hook',
      trigger: { hook: 'Door', event_id: 'e0', event_type: 'CustomEvent' },
      args: { text: 'say "needle-old" please' },
    });
  if (i % 100 === 50)
    return finishedRun({ id, kind: 'hook', name: 'Door', transport: 'hook', args: { n: i } });
  if (i % 100 === 51) {
    const hook = runIdAt(start + i - 1);
    return finishedRun({ id, parent_id: hook, root_id: hook, transport: 'hook', args: { n: i } });
  }
  return finishedRun({ id, args: { text: `message ${i}`, url: `https://example.com/?page=${i}` } });
}

async function listWhileWatching(
  t: TestApp,
  args: Record<string, unknown>,
): Promise<{ runs: StoredRun[]; maxDelayMs: number; servedDuring: boolean; slices: number }> {
  const store = t.service.store.runs;
  const slicesBefore = store.slices;
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let done = false;
  let servedDuring = false;
  // Queued before the call starts: it runs before the call ends only if the scan yields.
  setImmediate(() => (servedDuring = !done));
  const res = await call(t, 'runs.list', args);
  done = true;
  histogram.disable();
  expect(res.errors).toEqual([]);
  return {
    runs: (res.output as { runs: StoredRun[] }).runs,
    maxDelayMs: histogram.max / 1e6,
    servedDuring,
    slices: store.slices - slicesBefore,
  };
}

describe('runs.list at 100,000 runs', () => {
  let t: TestApp;
  // Runs start now, one a millisecond: a batch notes the time it was written as its last id, so
  // runs written long after they ran would stop no scan early (a live service writes them at once).
  const start = Date.now();

  beforeAll(async () => {
    t = await makeApp('runs: {max_runs: 1000000}');
    const store = t.service.store.runs;
    for (let i = 0; i < RUNS; i += BATCH) {
      const batch: FinishedRun[] = [];
      for (let j = i; j < Math.min(i + BATCH, RUNS); j++) batch.push(runAt(j, start));
      store.insert(batch, 16384);
    }
    expect(store.count()).toBe(RUNS);
  }, 120_000);
  afterAll(() => t.close());

  it('a filter every batch must be parsed for: scanned in slices, the oldest match found', async () => {
    const scan = await listWhileWatching(t, { transport: 'hook', action: 'utils.echo' });
    expect(scan.runs.map((r) => r.id)).toEqual([String(runIdAt(start))]);
    // The loop was served while the scan went on, between several slices.
    expect(scan.servedDuring).toBe(true);
    expect(scan.slices).toBeGreaterThan(1);
    // The slices are ~8 ms of work; the bound is generous because the test machine is shared and
    // loaded (a pause there is often the scheduler's): the whole-history pass in one go is 1-2.5 s.
    expect(scan.maxDelayMs).toBeLessThan(MAX_PAUSE_MS);
  });

  it('text holding a quote: found in the oldest run without a long pause', async () => {
    const scan = await listWhileWatching(t, { text: '"needle-old"' });
    expect(scan.runs.map((r) => r.id)).toEqual([String(runIdAt(start))]);
    expect(scan.runs[0]!.args).toEqual({ text: 'say "needle-old" please' });
    expect(scan.maxDelayMs).toBeLessThan(MAX_PAUSE_MS);
    // Case is ignored, and the page stays the newest first.
    const recent = await listWhileWatching(t, { text: 'MESSAGE 9999', limit: 3 });
    expect(recent.runs.map((r) => r.args.text)).toEqual([
      'message 99999',
      'message 99998',
      'message 99997',
    ]);
  });

  it('a transport filter: the newest matches, paged', async () => {
    const first = await listWhileWatching(t, { transport: 'hook', limit: 2 });
    expect(first.runs.map((r) => r.name)).toEqual(['Door', 'Door']);
    expect(Number(first.runs[0]!.id)).toBeGreaterThan(Number(first.runs[1]!.id));
    const next = await listWhileWatching(t, {
      transport: 'hook',
      limit: 200,
      before: first.runs[1]!.id,
    });
    expect(next.runs).toHaveLength(200);
    expect(next.runs.every((r) => r.name === 'Door' && r.steps === 1)).toBe(true);
    expect(next.maxDelayMs).toBeLessThan(MAX_PAUSE_MS);
    expect(first.maxDelayMs).toBeLessThan(MAX_PAUSE_MS);
  });
});
