import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { secret } from '../../src/core/action.ts';
import { isSecretKey, redactForRecord } from '../../src/core/redact.ts';

describe('redactForRecord', () => {
  it('masks credential keys at any depth, whatever their case or separator', () => {
    const args = {
      url: 'https://x',
      headers: { Authorization: 'Bearer abc', 'X-Api-Key': 'k', Accept: 'json' },
      nested: [{ password: 'p', keep: 1 }],
      client_secret: 's',
    };
    expect(redactForRecord(args)).toEqual({
      url: 'https://x',
      headers: { Authorization: '[redacted]', 'X-Api-Key': '[redacted]', Accept: 'json' },
      nested: [{ password: '[redacted]', keep: 1 }],
      client_secret: '[redacted]',
    });
    // The caller's arguments are not modified.
    expect(args.headers.Authorization).toBe('Bearer abc');
  });

  it("masks the action's declared secret parameters whatever they are called", () => {
    const params = { topic: z.string(), pin: secret(z.string().optional()) };
    expect(redactForRecord({ topic: 't', pin: '1234' }, params)).toEqual({
      topic: 't',
      pin: '[redacted]',
    });
  });

  it('returns the same object when nothing is secret (no copy on the hot path)', () => {
    const args = { text: 'hi', list: [1, { a: 2 }] };
    expect(redactForRecord(args)).toBe(args);
  });

  it('stops at a depth limit instead of recursing without end', () => {
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 100; i++) at = at.next = {};
    expect(JSON.stringify(redactForRecord(deep))).toContain('[too deep]');
  });

  it('matches whole key names only', () => {
    expect(['token', 'Access-Token', 'passwd', 'cookie'].every(isSecretKey)).toBe(true);
    expect(['tokens_used', 'author', 'password_hint_shown', 'text'].some(isSecretKey)).toBe(false);
  });
});
