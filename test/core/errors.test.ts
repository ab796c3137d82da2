import { describe, expect, it } from 'vitest';
import { CLIENT_CODES, ErrorCodes, PipitError } from '../../src/core/errors.ts';

const FRAME = /\n\s+at /;

describe('PipitError', () => {
  it('makes refusals of client input without a stack trace, and keeps the trace of other failures', () => {
    const limit = Error.stackTraceLimit;
    for (const code of ErrorCodes) {
      const err = new PipitError(code, `a ${code} error`, { cause: new Error('under') });
      expect(err.message).toBe(`a ${code} error`);
      expect(err.code).toBe(code);
      expect((err.cause as Error).message).toBe('under');
      if (CLIENT_CODES.has(code)) expect(err.stack, code).not.toMatch(FRAME);
      else expect(err.stack, code).toMatch(FRAME);
      expect(Error.stackTraceLimit).toBe(limit);
    }
    // The limit is restored: errors made after a refusal have their frames.
    void new PipitError('NOT_FOUND', 'gone');
    expect(new Error('after').stack).toMatch(FRAME);
  });

  it('counts only codes of the closed table as client codes, 4xx-like ones all included', () => {
    for (const code of CLIENT_CODES) expect(ErrorCodes).toContain(code);
    for (const code of ['INTERNAL', 'ACTION_FAILED', 'UPSTREAM_ERROR', 'CONFIG_INVALID'] as const)
      expect(CLIENT_CODES.has(code)).toBe(false);
  });
});
