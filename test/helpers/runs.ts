import type { FinishedRun } from '../../src/core/runs.ts';

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
