// `services.run` (what plugins get) and `run()` from 'pipit' (what scripts use) fail the same way:
// with the call's own code, the response's errors in `details.errors` and the error as `cause`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipitError } from '../../src/core/errors.ts';
import { outputOrThrow } from '../../src/core/run-output.ts';
import { makeApp } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const SCRIPT = `import { procedure, run } from 'pipit';
procedure('probe', async ({ action, args }) => {
  try {
    return { output: await run(action, args ?? {}) };
  } catch (e) {
    return { code: e.code, errors: e.details.errors };
  }
});
procedure('boom', () => {
  throw new Error('the boiler is off');
});
`;

let t: TestApp;

beforeAll(async () => {
  t = await makeApp('', { scripts: { 'probe.mjs': SCRIPT } });
});
afterAll(async () => {
  await t.close();
});

async function failureOf(promise: Promise<unknown>): Promise<PipitError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PipitError);
  return err as PipitError;
}

describe('services.run', () => {
  it('returns the output of a call that succeeds', async () => {
    await expect(t.service.services.run('utils.echo', { text: 'hi' })).resolves.toEqual({
      text: 'hi',
    });
  });

  it('rejects an unknown action with NOT_FOUND, not ACTION_FAILED', async () => {
    const err = await failureOf(t.service.services.run('nope.x'));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.details.errors).toEqual([expect.stringMatching(/nope/)]);
    expect(err.message).toBe((err.details.errors as string[]).join('\n'));
    expect(err.cause).toBeInstanceOf(PipitError);
    expect((err.cause as PipitError).code).toBe('NOT_FOUND');
  });

  it('rejects bad arguments with INVALID_ARGUMENTS', async () => {
    const err = await failureOf(t.service.services.run('utils.sleep', { seconds: 'later' }));
    expect(err.code).toBe('INVALID_ARGUMENTS');
    expect(err.message).toMatch(/"seconds".*"later"/);
  });

  it('says ACTION_FAILED when the action itself failed', async () => {
    const err = await failureOf(t.service.services.run('procedure.boom'));
    expect(err.code).toBe('ACTION_FAILED');
    expect(err.message).toMatch(/the boiler is off/);
  });
});

describe('run() in a script of the running service, through the same rule', () => {
  it('sees NOT_FOUND, INVALID_ARGUMENTS and ACTION_FAILED as services.run does', async () => {
    const probe = (action: string, args?: Record<string, unknown>) =>
      t.service.services.run('procedure.probe', { action, ...(args ? { args } : {}) });
    await expect(probe('nope.x')).resolves.toMatchObject({ code: 'NOT_FOUND' });
    await expect(probe('utils.sleep', { seconds: 'later' })).resolves.toMatchObject({
      code: 'INVALID_ARGUMENTS',
    });
    await expect(probe('procedure.boom')).resolves.toMatchObject({
      code: 'ACTION_FAILED',
      errors: [expect.stringMatching(/the boiler is off/)],
    });
    await expect(probe('utils.echo', { a: 1 })).resolves.toEqual({ output: { a: 1 } });
  });
});

describe('outputOrThrow', () => {
  const answer = (errors: string[], error?: PipitError) => ({
    message: { response: { output: { ok: true }, errors } },
    ...(error ? { error } : {}),
  });

  it("keeps the error's details (retryAfter) next to the errors", () => {
    const limited = new PipitError('RATE_LIMITED', 'slow down', { details: { retryAfter: 7 } });
    let thrown: unknown;
    try {
      outputOrThrow(answer(['slow down'], limited));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(PipitError);
    expect((thrown as PipitError).code).toBe('RATE_LIMITED');
    expect((thrown as PipitError).details).toEqual({ retryAfter: 7, errors: ['slow down'] });
  });

  it('is ACTION_FAILED for errors without a code, and the output when there are none', () => {
    expect(() => outputOrThrow(answer(['it broke']))).toThrow(
      expect.objectContaining({ code: 'ACTION_FAILED', message: 'it broke' }),
    );
    expect(outputOrThrow(answer([]))).toEqual({ ok: true });
  });
});
