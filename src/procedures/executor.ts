import type { Services } from '../core/services.ts';
import type { ActionResult } from './runner.ts';

/**
 * The `execute` a procedure, hook or cron runner calls for its action steps: the core's one
 * `execute()`, with the caller's transport name, abort signal and procedure depth, and the step's
 * `target` instance when it names one.
 *
 * @example
 * const execute = stepExecutor(services, { target: 'cron', depth: 0 });
 * await execute('utils.echo', { a: 1 }); // { output: { a: 1 }, errors: [] }
 */
export function stepExecutor(
  services: Services,
  opts: { target: string; depth: number; signal?: AbortSignal },
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
      { target: opts.target, depth: opts.depth, ...(opts.signal ? { signal: opts.signal } : {}) },
    );
    return message.response;
  };
}
