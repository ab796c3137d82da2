// A web hook's credentials in a cluster: its listener (on the instance it reached) gets the real
// values; the Redis stream, and so the other instances' /ws/events subscribers, get them masked.
// Two Pipit processes and a real redis-server.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../http/ws-client.ts';
import { events, startCluster } from './harness.ts';
import type { TestCluster } from './harness.ts';

const HOOK = `
event.hook.GitLab:
  if: {type: WebhookEvent, hook: gitlab}
  then:
    - return:
        token: \${args.token}
        password: \${data.password}
        gitlab: \${headers['x-gitlab-token']}
        signature: \${headers['x-hub-signature-256']}
`;
const SECRETS = ['QTOKEN-2', 'BODYPW-2', 'GLTOKEN-2', 'HUBSIG-2'];

describe('web hook credentials across a cluster', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startCluster(['alpha', 'beta'], {
      extra: (name) => (name === 'alpha' ? HOOK : ''),
    });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('the stream and the other instance get masked values; the listener the real ones', async () => {
    const { alpha, beta } = cluster.members;
    const watcher = await events(beta!);
    try {
      const res = await fetch(`${alpha!.url}/hook/gitlab?token=QTOKEN-2&page=2`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-gitlab-token': 'GLTOKEN-2',
          'x-hub-signature-256': 'sha256=HUBSIG-2',
        },
        body: JSON.stringify({ password: 'BODYPW-2', note: 'kept' }),
      });
      expect(await res.json()).toEqual({
        token: 'QTOKEN-2',
        password: 'BODYPW-2',
        gitlab: 'GLTOKEN-2',
        signature: 'sha256=HUBSIG-2',
      });
      const frame: Frame = await watcher.next(
        (f: Frame) => f.type === 'event' && f.args.hook === 'gitlab',
      );
      expect(frame.origin).toBe('alpha');
      expect(frame.args.args).toEqual({ token: '[redacted]', page: '2' });
      expect(frame.args.data).toEqual({ password: '[redacted]', note: 'kept' });
      expect(frame.args.headers).toMatchObject({
        'x-gitlab-token': '[redacted]',
        'x-hub-signature-256': '[redacted]',
      });
    } finally {
      watcher.ws.close();
    }
    const client = new Redis(cluster.redis.url, { lazyConnect: true });
    try {
      await client.connect();
      const entries = await client.xrange('pipit:events', '-', '+');
      const stream = JSON.stringify(entries);
      expect(stream).toContain('gitlab');
      expect(SECRETS.filter((s) => stream.includes(s))).toEqual([]);
    } finally {
      client.disconnect();
    }
  });
});
