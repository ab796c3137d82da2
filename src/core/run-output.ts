import { PipitError } from './errors.ts';
import type { ErrorCode, ErrorDetails } from './errors.ts';

/** What `execute()` answers, as much as turning it into a value or an error needs. */
export interface RunAnswer {
  message: { response: { output: unknown; errors: readonly string[] } };
  error?: { code: ErrorCode; message?: string; details?: ErrorDetails } | undefined;
}

/**
 * The output of a finished call, or a PipitError with the call's own code (NOT_FOUND for an
 * unknown action, INVALID_ARGUMENTS, TIMEOUT...; ACTION_FAILED only when the action failed), the
 * response's errors as its message and in `details.errors`, and the error behind them as `cause`.
 * One rule for `run()` (library and scripts) and `services.run` (plugins), so that a caller tells an
 * unknown action from a failed one whichever it used.
 *
 * @example
 * const out = outputOrThrow(await execute({ type: 'request', action: 'utils.echo' }, { transport: 'library' }));
 */
export function outputOrThrow(answer: RunAnswer): unknown {
  const { output, errors } = answer.message.response;
  const { error } = answer;
  if (error === undefined && errors.length === 0) return output;
  const message =
    errors.length > 0 ? errors.join('\n') : error?.message || 'the action failed without a message';
  throw new PipitError(error?.code ?? 'ACTION_FAILED', message, {
    cause: error,
    details: { ...error?.details, errors: [...errors] },
  });
}
