// An unnamed token gets a default name that tells it apart from the others.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeApp } from '../helpers/service.ts';

afterEach(() => vi.useRealTimers());

describe('default token names', () => {
  it('carry the creation time to the second', async () => {
    const t = await makeApp();
    try {
      const user = await t.service.auth.addUser('ada', 'correct horse battery');
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-23T14:32:05Z'));
      const first = await t.service.auth.issueToken(user, {});
      vi.setSystemTime(new Date('2026-11-23T14:32:09Z'));
      const second = await t.service.auth.issueToken(user, { name: '  ' });
      expect(first.name).toBe('token-2026-11-23-143205');
      expect(second.name).toBe('token-2026-11-23-143209');
    } finally {
      await t.close();
    }
  });
});
