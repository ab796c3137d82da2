import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../src/auth/auth.ts';
import type { PipitError } from '../../src/core/errors.ts';
import { CredentialWatch } from '../../src/http/ws/credential-watch.ts';
import { Store } from '../../src/store/store.ts';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const HOUR = 3_600_000;

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
  await registerAndToken(t.app);
});
afterAll(() => t.close());

/** A connection as the watch sees it, recording its refusals. */
function conn(principal: Principal) {
  const refusals: PipitError[] = [];
  return { principal, refusals, refuse: (error: PipitError) => void refusals.push(error) };
}

async function tokenPrincipal(expiryDays?: number): Promise<Principal> {
  const issued = await t.service.auth.issueToken(
    { id: 1, username: 'ada' },
    { expiryDays: expiryDays ?? null },
  );
  return t.service.auth.verifyToken(issued.token);
}

describe('CredentialWatch.admit (the per-frame check)', () => {
  it('refuses the next frame once another process revoked the token, without its poll', async () => {
    // No poll within the test: only admit() can notice.
    const watch = new CredentialWatch(t.service.auth, t.service.store, { pollMs: HOUR });
    try {
      const c = conn(await tokenPrincipal());
      watch.add(c);
      expect(watch.admit(c)).toBe(true);
      const other = Store.open(join(t.service.config.workdir, 'pipit.db'));
      try {
        other.tokens.revoke(c.principal.tokenId!);
      } finally {
        await other.close();
      }
      // Seen within Store.CHANGE_CHECK_MS (250 ms), by the frames themselves.
      await vi.waitFor(() => expect(watch.admit(c)).toBe(false), { timeout: 2000, interval: 20 });
      expect(c.refusals.map((e) => e.message)).toEqual([
        'the token of this connection was revoked',
      ]);
      // Later frames are ignored, and refused only once.
      expect(watch.admit(c)).toBe(false);
      expect(c.refusals).toHaveLength(1);
      expect(watch.tokens).toBe(0);
    } finally {
      watch.stop();
    }
  });

  it('refuses a frame after the expiry, before any timer has run', async () => {
    const watch = new CredentialWatch(t.service.auth, t.service.store, { pollMs: HOUR });
    try {
      const c = conn({ ...(await tokenPrincipal(1)), expiresAt: Date.now() / 1000 - 1 });
      watch.add(c);
      expect(watch.admit(c)).toBe(false);
      expect(c.refusals[0]?.message).toMatch(/the token has expired/);
    } finally {
      watch.stop();
    }
  });

  it('asks the database nothing per frame until the credential epoch moves', async () => {
    const watch = new CredentialWatch(t.service.auth, t.service.store, { pollMs: HOUR });
    const lookups = vi.spyOn(t.service.store.tokens, 'get');
    try {
      const c = conn(await tokenPrincipal());
      const bystander = await t.service.auth.issueToken({ id: 1, username: 'ada' }, {});
      watch.add(c);
      lookups.mockClear();
      for (let i = 0; i < 1000; i++) expect(watch.admit(c)).toBe(true);
      expect(lookups).not.toHaveBeenCalled();
      // Another token's revocation moves the epoch: one look, then none again.
      t.service.auth.revokeToken(1, bystander.id);
      lookups.mockClear();
      for (let i = 0; i < 10; i++) expect(watch.admit(c)).toBe(true);
      expect(lookups).toHaveBeenCalledTimes(1);
      expect(c.refusals).toEqual([]);
    } finally {
      lookups.mockRestore();
      watch.stop();
    }
  });
});
