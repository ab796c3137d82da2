// An empty bearer token is named as such, not as a malformed header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
  await registerAndToken(t.app);
});
afterAll(() => t.close());

describe('Authorization: Bearer with no token', () => {
  it.each(['Bearer ', 'Bearer', 'bearer    '])(
    '%j is refused as an empty bearer token',
    async (header) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/execute',
        headers: { authorization: header },
        payload: { type: 'request', action: 'utils.echo' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.body).toMatch(/the bearer token is empty/);
      expect(res.body).not.toMatch(/must be \\"Bearer <token>\\"/);
    },
  );
});
