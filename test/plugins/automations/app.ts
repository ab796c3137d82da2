import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Caller } from '../../../src/core/runs.ts';
import { makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';

/** A service on a temp dir whose config.yaml holds `yaml`, with `scripts` in ./scripts. */
export async function automationsApp(
  yaml: string,
  opts: { scripts?: Record<string, string>; dir?: string } = {},
): Promise<TestApp & { file: (name: string) => string }> {
  const owned = opts.dir ? undefined : tempDir();
  const dir = opts.dir ?? owned!.dir;
  const t = await makeApp(yaml, { dir, ...(opts.scripts ? { scripts: opts.scripts } : {}) });
  return {
    ...t,
    file: (name: string) => readFileSync(join(dir, name), 'utf8'),
    async close() {
      await t.close();
      owned?.cleanup();
    },
  };
}

/** Calls an action as `caller` (the user of an HTTP request), through the one execute(). */
export async function callAs(
  t: TestApp,
  action: string,
  args: Record<string, unknown> = {},
  caller: Caller = { user: 'ada', via: 'session' },
): Promise<{
  output: unknown;
  errors: string[];
  code: string | undefined;
  /** The code of the error the action threw (a failed action's code is ACTION_FAILED). */
  reason: unknown;
  message: string;
}> {
  const result = await t.service.execute(
    { type: 'request', action, args },
    { transport: 'http', caller },
  );
  return {
    output: result.message.response.output,
    errors: result.message.response.errors,
    code: result.error?.code,
    reason: result.error?.details.reason,
    message: result.error?.message ?? '',
  };
}

/** The output of a call that must succeed (its errors thrown otherwise). */
export async function ok<T>(
  t: TestApp,
  action: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const r = await callAs(t, action, args);
  if (r.code) throw new Error(`${action} failed: ${r.code} ${r.message} ${r.errors.join('; ')}`);
  return r.output as T;
}
