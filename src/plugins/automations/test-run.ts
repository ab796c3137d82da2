import { z } from 'zod';
import { actionsFor } from '../../core/action.ts';
import type { ActionContext } from '../../core/action.ts';
import { PipitError } from '../../core/errors.ts';
import { newRunId } from '../../core/runs.ts';
import { dryRun } from './dry-run.ts';
import { AutomationName } from './get.ts';
import { findAutomation } from './inventory.ts';
import type { Automation } from './inventory.ts';
import { sampleEvent } from './sample-event.ts';
import type { AutomationsState } from './state.ts';
import { TestOutput } from './wire.ts';

const defineAction = actionsFor<AutomationsState>();

/**
 * `automations.test`: runs an automation now, or with `dry_run` shows the steps it would run.
 * A procedure runs with `args`; a cron runs as when due; a hook (event or web) gets a sample
 * event (`event`, else the newest of its kind, else an empty one) and says whether its condition
 * matched. A disabled hook or cron is tested all the same. The run is recorded as the caller's.
 *
 * @example
 * await run('automations.test', { name: 'event.hook.OnDoor', event: { subtype: 'door' }, dry_run: true });
 * // {matched: true, steps: [{action: 'light.on', args: {room: 'hall'}, skipped: 'dry run'}], ...}
 */
export const test = defineAction({
  name: 'test',
  summary:
    'Runs an automation now (a hook on a sample event), or with dry_run lists the steps it would run with their arguments.',
  params: {
    name: AutomationName,
    event: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("hooks: the event fields to try (type defaults to the hook's kind)"),
    dry_run: z
      .boolean()
      .default(false)
      .describe('true: evaluate conditions and ${} expressions, call no action'),
    args: z
      .record(z.string(), z.unknown())
      .default({})
      .describe('procedures: the arguments of the call (its declared parameters)'),
  },
  result: TestOutput,
  run: async ({ name, event, dry_run: dry, args }, ctx): Promise<TestOutput> => {
    const { services, signal } = ctx;
    const a = findAutomation(services, name);
    const sample = a.hook ? sampleEvent(services, a.hook, event) : undefined;
    if (dry) return dryRun(services, a, args, sample, signal);
    if (a.kind === 'procedure') return runProcedureNow(a, args, ctx);
    if (a.cron) {
      const runId = newRunId();
      const result = await services.cron.runNow(a.cron.name, {
        runId,
        ...(ctx.caller ? { caller: ctx.caller } : {}),
      });
      if (result === 'skipped')
        throw new PipitError(
          'CONFLICT',
          `${name} is running right now; test it again when that run has finished`,
        );
      return {
        run_id: runId,
        ...(result === 'failed'
          ? { error: `the run failed: runs.get {id: "${runId}"} shows why` }
          : {}),
      };
    }
    const hook = a.hook!;
    if (!hook.matches(sample!.args)) return { matched: false, event: sample!.args };
    const runId = newRunId();
    let response: unknown;
    const outcome = await services.events.hooks.runOne(
      hook,
      sample!,
      { signal, respond: (r) => (response ??= r) },
      { runId, ...(ctx.caller ? { caller: ctx.caller } : {}) },
    );
    return {
      matched: true,
      event: sample!.args,
      run_id: runId,
      output: outcome.ok ? (response ?? outcome.value ?? null) : null,
      ...(outcome.ok ? {} : { error: errorText(outcome.error) }),
    };
  },
});

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function runProcedureNow(
  a: Automation,
  args: Record<string, unknown>,
  ctx: ActionContext<AutomationsState>,
): Promise<TestOutput> {
  const runId = newRunId();
  const { message, error } = await ctx.services.execute(
    { type: 'request', action: a.name, args },
    {
      transport: 'automations',
      runId,
      signal: ctx.signal,
      ...(ctx.caller ? { caller: ctx.caller } : {}),
    },
  );
  return {
    run_id: runId,
    output: message.response.output ?? null,
    ...(error ? { error: message.response.errors.join('; ') || error.message } : {}),
  };
}
