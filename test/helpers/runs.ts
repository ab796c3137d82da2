import { afterEach } from 'vitest';
import { createLogger } from '../../src/core/logger.ts';
import type { Logger } from '../../src/core/logger.ts';
import type { FinishedRun } from '../../src/core/runs.ts';
import type { RunsConfig } from '../../src/plugins/runs/config.ts';
import { RunHistory } from '../../src/plugins/runs/history.ts';
import type { HistoryLimits } from '../../src/plugins/runs/history.ts';
import { Store } from '../../src/store/store.ts';

/**
 * A finished `utils.echo` run for history tests: ok, no caller or trigger, started at its id's
 * millisecond; `over` sets any field.
 *
 * @example
 * store.runs.insert([finishedRun({ id: runIdAt(Date.now()) })], 16384);
 */
export function finishedRun(over: Partial<FinishedRun> & { id: number }): FinishedRun {
  return {
    parent_id: null,
    root_id: over.id,
    kind: 'action',
    name: 'utils.echo',
    transport: 'http',
    caller: null,
    trigger: null,
    args: { text: 'hi' },
    started_at: Math.floor(over.id / 1024),
    duration_ms: 0.5,
    outcome: 'ok',
    error_code: null,
    errors: [],
    output: { text: 'hi' },
    replay_of: null,
    ...over,
  };
}

/**
 * Opens run history writers on in-memory stores, each closed after its test (call it inside a
 * `describe`). Config defaults: 100 runs kept, 30 days, 16 KB outputs.
 *
 * @example
 * const openHistory = historyWriters();
 * const { store, history } = openHistory({ max_runs: 1000 }, log, { maxHeld: 1024 });
 */
export function historyWriters() {
  const open: Array<{ history: RunHistory; store: Store }> = [];
  afterEach(async () => {
    for (const { history, store } of open.splice(0)) {
      history.close();
      await store.close();
    }
  });
  return (
    config: Partial<RunsConfig> = {},
    log: Logger = createLogger({ level: 'silent' }),
    limits?: HistoryLimits,
  ) => {
    const store = Store.open(':memory:');
    const full = { record: true, max_runs: 100, max_age_days: 30, max_output_bytes: 16384 };
    const history = new RunHistory(store.runs, { ...full, ...config }, log, limits);
    open.push({ history, store });
    return { store, history };
  };
}
