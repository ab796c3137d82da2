import { describe, expect, it } from 'vitest';
import { runIdAt } from '../../../src/core/runs.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { finishedRun, historyWriters } from '../../helpers/runs.ts';
import { captureLog } from '../../helpers/service.ts';

const run = (id: number) => finishedRun({ id });

describe('pruning the run history', () => {
  const openHistory = historyWriters();

  // A history keeping 100 runs, with `batches` batches of `size` runs written a minute ago.
  const backlog = (batches: number, size: number, log = createLogger({ level: 'silent' })) => {
    const { store, history } = openHistory({}, log);
    const start = Date.now() - 60_000;
    for (let b = 0; b < batches; b++)
      store.runs.insert(
        Array.from({ length: size }, (_, i) => run(runIdAt(start + b) + i)),
        16384,
      );
    return { store, history };
  };

  it('prunes a large backlog in steps, serving the event loop between them', async () => {
    // A busy minute's backlog, scaled down: 300 batches of 256 runs, all but 100 to go.
    const { store, history } = backlog(300, 256);
    const order: string[] = [];
    const counts: number[] = [];
    const served = () =>
      setImmediate(() => {
        order.push('served');
        counts.push(store.runs.count());
        if (order.length < 3) served();
      });
    served();
    const pruned = history.prune().then((n) => {
      order.push('pruned');
      return n;
    });
    expect(await history.prune()).toBe(0); // one prune at a time
    expect(await pruned).toBe(300 * 256 - 100);
    expect(store.runs.count()).toBe(100);
    // Requests ran while the prune went on, and each saw a step's progress, not all or nothing.
    expect(order.slice(0, 3)).toEqual(['served', 'served', 'served']);
    expect(counts[0]).toBeLessThan(300 * 256);
    expect(counts[0]).toBeGreaterThan(100);
    expect(counts[1]).toBeLessThan(counts[0]!);
  });

  it('logs a prune that fails, keeps every run, and prunes again next time', async () => {
    const { log, lines } = captureLog('warn');
    const { store, history } = backlog(3, 100, log);
    // The table is out of reach for one prune (as a corrupt or locked database would be).
    store.db.exec('ALTER TABLE run_batches RENAME TO run_batches_away');
    expect(await history.prune()).toBe(0);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'could not prune the run history',
        err: expect.objectContaining({ message: expect.stringMatching(/no such table/) }),
      }),
    );
    store.db.exec('ALTER TABLE run_batches_away RENAME TO run_batches');
    expect(store.runs.count()).toBe(300);
    expect(await history.prune()).toBe(200);
    expect(store.runs.count()).toBe(100);
  });
});
