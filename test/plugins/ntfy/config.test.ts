import { describe, expect, it } from 'vitest';
import { NtfyConfig } from '../../../src/plugins/ntfy/config.ts';
import { makeApp } from '../../helpers/service.ts';
import { ntfyStatus } from './helpers.ts';

describe('ntfy configuration', () => {
  it("defaults to ntfy.sh, no subscriptions, Platypush's keys", () => {
    expect(NtfyConfig.parse({})).toMatchObject({
      server_url: 'https://ntfy.sh',
      subscriptions: [],
      timeout_seconds: 10,
    });
  });

  it('refuses a user without a password, a topic ntfy would refuse, a URL that is not http(s)', async () => {
    await expect(makeApp('ntfy:\n  username: phil\n')).rejects.toThrow(
      /ntfy[\s\S]*password[\s\S]*username and password go together/,
    );
    await expect(makeApp('ntfy:\n  subscriptions: [ok, "not ok"]\n')).rejects.toThrow(
      /subscriptions[\s\S]*not an ntfy topic/,
    );
    await expect(makeApp('ntfy:\n  server_url: ftp://ntfy.lan\n')).rejects.toThrow(/server_url/);
  });

  it('starts without subscriptions: no stream, no link to report', async () => {
    const t = await makeApp('ntfy:\n  server_url: http://127.0.0.1:9\n');
    try {
      expect(ntfyStatus(t)).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
