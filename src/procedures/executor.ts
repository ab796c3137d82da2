import type { Services } from '../core/services.ts';
import type { ActionResult } from './runner.ts';

/**
 * The `execute` a procedure, hook or cron runner calls for its action steps: the core's one
 * `execute()`, with the caller's transport name, abort signal and procedure depth.
 *
 * @example
 * const execute = stepExecutor(services, { target: 'cron', depth: 0 });
 * await execute('utils.echo', { a: 1 }); // { output: { a: 1 }, errors: [] }
 */
export function stepExecutor(
  services: Services,
  opts: { target: string; depth: number; signal?: AbortSignal },
): (action: string, args: Record<string, unknown>) => Promise<ActionResult> {
  return async (action, args) => {
    const { message } = await services.execute(
      { type: 'request', action, args },
      { target: opts.target, depth: opts.depth, ...(opts.signal ? { signal: opts.signal } : {}) },
    );
    return message.response;
  };
}
