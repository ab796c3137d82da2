import type { Services } from '../core/services.ts';
import type { ActionResult } from './runner.ts';

/**
 * The `execute` a procedure, hook or cron runner calls for its action steps: the core's one
 * `execute()`, with the caller's transport name, abort signal and procedure depth, and the step's
 * `target` instance when it names one.
 *
 * @example
 * const execute = stepExecutor(services, { transport: 'cron', depth: 0 });
 * await execute('utils.echo', { a: 1 }); // { output: { a: 1 }, errors: [] }
 */
export function stepExecutor(
  services: Services,
  opts: { transport: string; depth: number; signal?: AbortSignal },
): (
  action: string,
  args: Record<string, unknown>,
  step?: { target?: string },
) => Promise<ActionResult> {
  return async (action, args, step) => {
    const { message } = await services.execute(
      {
        type: 'request',
        action,
        args,
        ...(step?.target === undefined ? {} : { target: step.target }),
      },
      {
        transport: opts.transport,
        depth: opts.depth,
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
    );
    return message.response;
  };
}

/** One action step a dry run reached: the call it would have made. */
export interface DryRunStep {
  action: string;
  args: Record<string, unknown>;
  target?: string;
}

/**
 * The `execute` of a dry run: it calls nothing, records each action step it reaches (with its
 * arguments evaluated) in `into`, and answers null, so that conditions and `${}` expressions are
 * evaluated as in a run while no action has an effect. Steps that use an action's output see null.
 *
 * @example
 * const steps: DryRunStep[] = [];
 * await runSteps(parsed, {}, { execute: dryRunExecutor(steps) });
 * steps; // [{ action: 'utils.echo', args: { text: 'hi' } }]
 */
export function dryRunExecutor(
  into: DryRunStep[],
): (
  action: string,
  args: Record<string, unknown>,
  step?: { target?: string },
) => Promise<ActionResult> {
  return (action, args, step) => {
    into.push({ action, args, ...(step?.target === undefined ? {} : { target: step.target }) });
    return Promise.resolve({ output: null, errors: [] });
  };
}
