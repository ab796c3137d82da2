import type { TestApp } from '../helpers/service.ts';

/** Runs an action through the service's one execute(), as every transport does. */
export async function call(
  t: TestApp,
  action: string,
  args: Record<string, unknown> = {},
): Promise<{ output: unknown; errors: string[]; code: string | undefined; reason: unknown }> {
  const result = await t.service.execute({ type: 'request', action, args }, { target: 'test' });
  return {
    output: result.message.response.output,
    errors: result.message.response.errors,
    code: result.error?.code,
    reason: result.error?.details.reason,
  };
}
