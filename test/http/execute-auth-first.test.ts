// /execute authenticates before reading the body: an unauthenticated client gets
// 401, never parse details or a 413 for a body nobody asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';

let s: Listening;
beforeAll(async () => {
  s = await listening();
});
afterAll(() => s.close());

const post = (headers: Record<string, string>, body: string) =>
  fetch(`${s.http}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

describe('/execute authenticates first', () => {
  it.each([
    ['malformed JSON', '{"type": "request",'],
    ['a body over max_body_bytes', `{"pad":"${'x'.repeat(1_100_000)}"}`],
    ['a deeply nested body', '['.repeat(100_000)],
  ])('no token + %s: 401 that says how to authenticate', async (_what, body) => {
    const res = await post({}, body);
    expect(res.status).toBe(401);
    const errors = ((await res.json()) as { response: { errors: string[] } }).response.errors;
    expect(errors[0]).toMatch(/authentication required/);
    expect(errors.join(' ')).not.toMatch(/JSON|larger than/);
  });

  it('a bad token + malformed JSON: 401 too', async () => {
    const res = await post({ authorization: 'Bearer not.a.jwt' }, '{"type"');
    expect(res.status).toBe(401);
  });

  it('with a token, the same malformed body gets its parse error', async () => {
    const res = await post(s.auth, '{"type": "request",');
    expect(res.status).toBe(400);
    const errors = ((await res.json()) as { response: { errors: string[] } }).response.errors;
    expect(errors[0]).toMatch(/malformed JSON/);
  });
});
