import type { ExecuteResult } from '../../src/core/execute.ts';
import type { TestApp } from '../helpers/service.ts';

/**
 * Runs an action through the service's one execute(), as every transport does. `code` and
 * `reason` are the error's, for the common assertions; `result` is the whole answer.
 */
export async function call(
  t: TestApp,
  action: string,
  args: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<{
  output: unknown;
  errors: string[];
  code: string | undefined;
  reason: unknown;
  result: ExecuteResult;
}> {
  const result = await t.service.execute(
    { type: 'request', action, args },
    { transport: 'test', ...(signal ? { signal } : {}) },
  );
  return {
    output: result.message.response.output,
    errors: result.message.response.errors,
    code: result.error?.code,
    reason: result.error?.details.reason,
    result,
  };
}
