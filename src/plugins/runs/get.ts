import { actionsFor } from '../../core/action.ts';
import { PipitError } from '../../core/errors.ts';
import type { Runs, StoredRunDetail } from '../../store/runs.ts';
import { requireHistory, RunId } from './list.ts';
import type { RunsState } from './state.ts';

const defineAction = actionsFor<RunsState>();

/** A run with its steps, each with theirs (a procedure called from a hook, say). */
export type RunTree = StoredRunDetail & { children: RunTree[] };

// Procedures nest at most 32 deep (core/execute.ts); a hook or cron adds one level above them.
const MAX_TREE_DEPTH = 40;

/**
 * `runs.get`: one run with its output and its steps as a tree, in the order they started.
 *
 * @example
 * await run('runs.get', { id: '1795434578123776' });
 * // {id, kind: 'cron', name: 'Nightly', outcome: 'failed', children: [{name: 'utils.echo', ...}, ...]}
 */
export const get = defineAction({
  name: 'get',
  summary: 'Returns one recorded run with its output and its steps (a tree, in order).',
  params: { id: RunId },
  run: ({ id }, { state, services }) => {
    requireHistory(state).flush();
    return runTree(services.store.runs, id);
  },
});

/**
 * The stored run `id` with its steps; NOT_FOUND when there is none (pruned, or never recorded).
 *
 * @example
 * runTree(store.runs, id).children[0].name; // 'utils.echo'
 */
export function runTree(runs: Runs, id: string): RunTree {
  const run = runs.get(id);
  if (!run)
    throw new PipitError(
      'NOT_FOUND',
      `no recorded run "${id}": it may have been pruned (runs.max_runs, runs.max_age_days); runs.list shows the ones kept`,
    );
  return withChildren(runs, run, 0);
}

function withChildren(runs: Runs, run: StoredRunDetail, depth: number): RunTree {
  const children =
    run.steps && depth < MAX_TREE_DEPTH
      ? runs.children(run.id).map((c) => withChildren(runs, c, depth + 1))
      : [];
  return { ...run, children };
}
