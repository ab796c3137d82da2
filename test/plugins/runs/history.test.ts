import { describe, expect, it } from 'vitest';
import { runIdAt } from '../../../src/core/runs.ts';
import type { HistoryLimits } from '../../../src/plugins/runs/history.ts';
import { finishedRun, historyWriters } from '../../helpers/runs.ts';
import { captureLog } from '../../helpers/service.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the run history writer', () => {
  const openHistory = historyWriters();

  const writer = (limits: HistoryLimits) => {
    const { store, history } = openHistory({ max_runs: 1_000_000 }, undefined, limits);
    const first = runIdAt(Date.now());
    let next = 0;
    // `n` runs finished in one go, as a script calling run() in a loop finishes them.
    const burst = (n: number) => {
      let mostHeld = 0;
      for (let i = 0; i < n; i++) {
        history.observer(finishedRun({ id: first + next++ }));
        mostHeld = Math.max(mostHeld, history.held);
      }
      return mostHeld;
    };
    // The batches' first ids, in the order they were written.
    const written = () =>
      (
        store.db.prepare('SELECT min_id FROM run_batches ORDER BY seq').all() as Array<{
          min_id: number;
        }>
      ).map((row) => row.min_id - first);
    return { store, history, burst, written };
  };

  it('writes the oldest batch itself once its cap of waiting runs is reached, losing none', () => {
    const { store, history, burst, written } = writer({ maxHeld: 1024 });
    // 5,000 runs before the event loop turns once: the writer's own turn never comes.
    const mostHeld = burst(5000);
    expect(mostHeld).toBeLessThan(1024);
    expect(history.held).toBeLessThan(1024);
    expect(store.runs.count()).toBe(5000 - history.held);
    history.flush();
    expect(history.held).toBe(0);
    expect(store.runs.count()).toBe(5000);
    // Oldest first, 256 at a time, the last batch the 136 left over.
    const starts = written();
    expect(starts).toEqual(Array.from({ length: 20 }, (_, i) => i * 256));
  });

  it('writes every waiting full batch in one turn while its time allows', async () => {
    const { store, history, burst } = writer({ catchUpMs: 60_000 });
    burst(10 * 256 + 17);
    expect(store.runs.count()).toBe(0); // queued on the hot path, nothing written there
    await turn();
    // The ten full batches went in one turn; the 17 left wait for their timer or the next batch.
    expect(store.runs.count()).toBe(10 * 256);
    expect(history.held).toBe(17);
  });

  it('writes one batch a turn when its time is up, and the rest on the next turns', async () => {
    const { store, history, burst } = writer({ catchUpMs: 0 });
    burst(3 * 256);
    await turn();
    expect(store.runs.count()).toBe(256);
    await turn();
    expect(store.runs.count()).toBe(512);
    await turn();
    expect(store.runs.count()).toBe(768);
    expect(history.held).toBe(0);
  });

  it('logs a batch it cannot write, losing only that batch, and writes the next ones', async () => {
    const { log, lines } = captureLog('warn');
    // Both batches are written in the one turn awaited below, however slow the machine (the
    // failure's log line can take longer than the default catch-up time on a loaded CI runner).
    const { store, history } = openHistory({ max_runs: 1_000_000 }, log, { catchUpMs: 60_000 });
    const insert = store.runs.insert.bind(store.runs);
    let failures = 1;
    store.runs.insert = (runs, max) => {
      if (failures-- > 0) throw new Error('SQLITE_FULL: database or disk is full');
      insert(runs, max);
    };
    const first = runIdAt(Date.now());
    // The observer never throws into the run it is told of, even with the write failing.
    for (let i = 0; i < 2 * 256; i++) history.observer(finishedRun({ id: first + i }));
    await turn();
    expect(store.runs.count()).toBe(256);
    const warning = lines.find((l) => String(l.msg).startsWith('could not record 256 runs'));
    expect(warning).toMatchObject({ runs: 256, msg: expect.stringMatching(/full disk/) });
    expect(String((warning!.err as { message?: string }).message)).toMatch(/SQLITE_FULL/);
  });
});
