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

  it('counts as client codes exactly those that refuse a request (HTTP 4xx)', () => {
    const refusals =
      'BAD_REQUEST INVALID_ARGUMENTS NOT_FOUND UNAUTHORIZED FORBIDDEN NO_USER CONFLICT PAYLOAD_TOO_LARGE UNSUPPORTED_MEDIA_TYPE HEADERS_TOO_LARGE REQUEST_TIMEOUT RATE_LIMITED';
    expect([...CLIENT_CODES].sort()).toEqual(refusals.split(' ').sort());
    expect(ErrorCodes.filter((code) => !CLIENT_CODES.has(code)).sort()).toEqual([
      'ACTION_FAILED',
      'CONFIG_INVALID',
      'INTERNAL',
      'TIMEOUT',
      'UNAVAILABLE',
      'UPSTREAM_ERROR',
    ]);
  });
});
