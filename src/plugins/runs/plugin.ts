import { definePlugin } from '../../core/action.ts';
import { headFacts } from '../api/head.ts';
import { head } from './head.ts';
import { RunsConfig } from './config.ts';
import { get } from './get.ts';
import { RunHistory } from './history.ts';
import { list } from './list.ts';
import { replay } from './replay.ts';
import type { RunsState } from './state.ts';

/**
 * `runs`: the run history. Every execution — from any transport, hook, cron or procedure step — is
 * recorded with its origin, caller, redacted arguments, duration, outcome, errors and (cut) output;
 * `runs.list`, `runs.get` and `runs.replay` read and replay it, and the web UI's Runs page shows it.
 *
 * @example
 * // config.yaml (all optional): runs: {record: true, max_runs: 10000, max_age_days: 30}
 * await run('runs.list', { outcome: 'failed' });
 */
export default definePlugin<RunsConfig, RunsState>({
  ...headFacts(head),
  // It reads and prunes the run history in the store, which a plugin package cannot reach.
  privileged: true,
  summary:
    'Run history: every action, procedure, hook and cron run with its arguments (secrets masked), outcome and errors; list, show and replay.',
  config: RunsConfig,
  actions: [list, get, replay],
  init: ({ config, log, services }) => {
    if (!config.record) return { history: undefined, remove: undefined };
    const history = new RunHistory(services.store.runs, config, log);
    return { history, remove: services.runs.add(history.observer) };
  },
  stop: (state) => {
    state.remove?.();
    state.history?.close();
  },
});
