import { actionsFor, REDACTED } from '../../core/action.ts';
import type { ActionContext } from '../../core/action.ts';
import { PipitError } from '../../core/errors.ts';
import { newRunId } from '../../core/runs.ts';
import type { Caller } from '../../core/runs.ts';
import { makeEvent } from '../../events/event.ts';
import type { HookResponse } from '../../events/hooks.ts';
import type { StoredRunDetail } from '../../store/runs.ts';
import { runTree } from './get.ts';
import type { RunTree } from './get.ts';
import { requireHistory, RunId } from './list.ts';
import type { RunsState } from './state.ts';

const defineAction = actionsFor<RunsState>();

/**
 * `runs.replay`: runs a recorded run again as the calling user — the same action or procedure with
 * the same arguments, the same hook on a copy of its event, or the same cron job — and returns the
 * new run (with `replay_of` pointing at the old one). A run whose arguments had secrets masked or
 * were cut is refused: the history does not keep what would be needed.
 *
 * @example
 * await run('runs.replay', { id: '1795434578123776' });
 * // {id: '1795434579000000', replay_of: '1795434578123776', outcome: 'failed', children: [...]}
 */
export const replay = defineAction({
  name: 'replay',
  summary:
    'Runs a recorded run again as the calling user and returns the new run, linked to the old.',
  params: { id: RunId },
  run: async ({ id }, ctx) => {
    const history = requireHistory(ctx.state);
    history.flush();
    const original = runTree(ctx.services.store.runs, id);
    refuseIncomplete(original);
    const runId = newRunId();
    const origin = { replayOf: id, runId, ...(ctx.caller ? { caller: ctx.caller } : {}) };
    if (original.kind === 'cron') await replayCron(ctx, original.name, origin);
    else if (original.kind === 'hook') await replayHook(ctx, original, origin);
    else {
      await ctx.services.execute(
        { type: 'request', action: original.name, args: original.args },
        { transport: 'replay', signal: ctx.signal, ...origin },
      );
    }
    history.flush();
    return runTree(ctx.services.store.runs, runId);
  },
});

type Origin = { replayOf: string; runId: string; caller?: Caller };

async function replayCron(ctx: ActionContext<RunsState>, name: string, origin: Origin) {
  const result = await ctx.services.cron.runNow(name, origin);
  if (result === 'skipped')
    throw new PipitError(
      'CONFLICT',
      `cron job ${name} is running right now; replay it when that run has finished`,
    );
}

async function replayHook(ctx: ActionContext<RunsState>, run: RunTree, origin: Origin) {
  const { hooks } = ctx.services.events;
  const hook = hooks.get(run.name);
  if (!hook)
    throw new PipitError(
      'NOT_FOUND',
      `no hook named "${run.name}" any more (was it renamed or removed by a reload?)`,
    );
  const { type, ...fields } = run.args;
  if (typeof type !== 'string')
    throw new PipitError('ACTION_FAILED', `run ${run.id} did not record its event's type`);
  const event = makeEvent(type, fields, ctx.services.deviceId);
  // A web hook's answer has no HTTP client to go to now; it is accepted and dropped.
  const respond = (_response: HookResponse) => {};
  await hooks.runOne(hook, event, { signal: ctx.signal, respond }, origin);
}

function refuseIncomplete(run: StoredRunDetail): void {
  if (Object.hasOwn(run.args, '_truncated'))
    throw new PipitError(
      'CONFLICT',
      `run ${run.id}'s arguments were longer than runs.max_output_bytes and were cut: it cannot be replayed`,
    );
  const masked = maskedPaths(run.args, '');
  if (masked.length)
    throw new PipitError(
      'CONFLICT',
      `run ${run.id} had secret arguments (${masked.join(', ')}) that the history does not keep: run ${run.name} again with them instead`,
    );
}

function maskedPaths(value: unknown, path: string): string[] {
  // A string may have had only its credential masked (a URL's `?token=[redacted]`).
  if (typeof value === 'string' && value.includes(REDACTED)) return [path || '(arguments)'];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) =>
    maskedPaths(item, path ? `${path}.${key}` : key),
  );
}
