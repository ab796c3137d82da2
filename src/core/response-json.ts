import { PipitError } from './errors.ts';
import type { ExecuteResult } from './execute.ts';
import { jsonValueProblem } from './json-limits.ts';
import { buildResponse } from './messages.ts';

/**
 * The JSON text of an `execute()` result, for the transports that send it (HTTP, WebSocket, CLI).
 * An output that cannot be JSON (a script returning a BigInt or a circular object, or nesting
 * thousands of levels deep) is the action's failure: the answer becomes an ACTION_FAILED response
 * with the same id that names the problem, instead of an exception outside any error handling.
 *
 * @example
 * const { json, result } = responseJson(await service.execute(raw, { transport: 'ws' }));
 * socket.send(json);
 */
export function responseJson(result: ExecuteResult): { json: string; result: ExecuteResult } {
  try {
    return { json: JSON.stringify(result.message), result };
  } catch (err) {
    const { message } = result;
    const problem =
      jsonValueProblem(message.response.output) ?? (err as Error).message ?? 'it cannot be JSON';
    const error = new PipitError(
      'ACTION_FAILED',
      `the action's output cannot be sent as JSON: ${problem}`,
      { cause: err },
    );
    const failed = buildResponse({
      id: message.id,
      target: message.target,
      origin: message.origin,
      output: undefined,
      errors: [error.message],
    });
    return { json: JSON.stringify(failed), result: { message: failed, error } };
  }
}
