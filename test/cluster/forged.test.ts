// Whoever can write to Redis cannot run actions. Messages written straight into Redis
// (unsigned, signed with another secret, stale, replayed) are refused and counted; a message
// sealed with the cluster's secret is the control that does run.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Seal } from '../../src/cluster/seal.ts';
import { sample } from '../helpers/prometheus.ts';
import { custom, record } from './frames.ts';
import type { Received } from './frames.ts';
import { SECRET, events, execute, instances, metricsOf, startCluster } from './harness.ts';
import type { Member, TestCluster } from './harness.ts';

let cluster: TestCluster;
let alpha: Member;
let beta: Member;
let onAlpha: Received;
let redis: Redis;

const genuine = new Seal(SECRET);
const forger = new Seal('not-the-cluster-secret-0123456789');

beforeAll(async () => {
  cluster = await startCluster(['alpha', 'beta']);
  alpha = cluster.members.alpha!;
  beta = cluster.members.beta!;
  onAlpha = record(await events(alpha));
  redis = new Redis(cluster.redis.url);
}, 60_000);

afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

// A request for beta, from an instance that does not exist, firing an event everyone can see.
function requestFor(how: string, at = Date.now()) {
  return JSON.stringify({
    v: 1,
    kind: 'request',
    from: 'mallory',
    iid: 'mallory-0001',
    ts: at,
    nonce: randomUUID(),
    to: 'beta',
    id: `m-${how}`,
    deadline: at + 10_000,
    caller: { user: 'mallory', via: 'token' },
    depth: 0,
    request: { action: 'event.fire', args: { subtype: 'forged-test', args: { how } } },
  });
}

function eventFrom(how: string) {
  return JSON.stringify({
    v: 1,
    kind: 'event',
    from: 'mallory',
    iid: 'mallory-0001',
    ts: Date.now(),
    nonce: randomUUID(),
    event: {
      type: 'event',
      id: randomUUID().replaceAll('-', ''),
      origin: 'mallory',
      target: 'mallory',
      _timestamp: Date.now() / 1000,
      args: {
        type: 'pipit.message.event.custom.CustomEvent',
        subtype: 'forged-test',
        args: { how },
      },
    },
  });
}

const refusedOn = async (m: Member) => (await instances(m)).refused as Record<string, number>;

describe('messages written straight into Redis', () => {
  it('refuses requests that are unsigned, forged, stale or replayed, and runs a genuine one once', async () => {
    const before = await refusedOn(beta);
    const channel = 'pipit:req:beta';
    await redis.publish(channel, requestFor('unsigned'));
    await redis.publish(channel, forger.seal(requestFor('forged')));
    await redis.publish(channel, genuine.seal(requestFor('stale', Date.now() - 10 * 60_000)));
    const control = genuine.seal(requestFor('genuine'));
    await redis.publish(channel, control);
    await onAlpha.await(custom('forged-test', { how: 'genuine' }));
    // The same sealed message pushed again, then a new genuine one to know it has been read.
    await redis.publish(channel, control);
    await redis.publish(channel, genuine.seal(requestFor('genuine-2')));
    await onAlpha.await(custom('forged-test', { how: 'genuine-2' }));

    const after = await refusedOn(beta);
    for (const cause of ['unsigned', 'bad_signature', 'stale', 'replayed'])
      expect({ cause, refused: after[cause]! - before[cause]! }).toEqual({ cause, refused: 1 });
    for (const how of ['unsigned', 'forged', 'stale'])
      expect(onAlpha.count(custom('forged-test', { how }))).toBe(0);
    expect(onAlpha.count(custom('forged-test', { how: 'genuine' }))).toBe(1);
  });

  it('refuses unsigned and forged events in the stream, answers on reply channels and heartbeats', async () => {
    const before = await refusedOn(alpha);
    await redis.xadd('pipit:events', '*', 'm', eventFrom('unsigned-event'));
    await redis.xadd('pipit:events', '*', 'm', forger.seal(eventFrom('forged-event')));
    await redis.publish('pipit:reply:alpha', JSON.stringify({ kind: 'response', id: 'x' }));
    // Read after the forgeries (same stream, same reply channel): both were handled by then.
    await execute(beta, { action: 'event.fire', args: { subtype: 'after-forgeries' } });
    await onAlpha.await(custom('after-forgeries'));
    const routed = await execute(alpha, { action: 'utils.echo', args: { ok: 1 }, target: 'beta' });
    expect(routed.status).toBe(200);

    const after = await refusedOn(alpha);
    expect(after.unsigned! - before.unsigned!).toBe(2);
    expect(after.bad_signature! - before.bad_signature!).toBe(1);
    expect(onAlpha.count(custom('forged-test'))).toBe(2); // the genuine requests' events only

    // An instance announced without the secret is not one: every instance refuses it, and none
    // deletes it (only its writer does; it expires by itself).
    const badBefore =
      (await refusedOn(alpha)).bad_signature! + (await refusedOn(beta)).bad_signature!;
    const forgedKey = 'pipit:instance:mallory:0123456789ab';
    await redis.set(forgedKey, forger.seal('{"kind":"heartbeat"}'), 'PX', 60_000);
    await redis.zadd('pipit:members', Date.now(), forgedKey);
    await vi.waitFor(
      async () => {
        const badAfter =
          (await refusedOn(alpha)).bad_signature! + (await refusedOn(beta)).bad_signature!;
        expect(badAfter - badBefore).toBeGreaterThanOrEqual(2);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(await redis.exists(forgedKey)).toBe(1);
    const report = await instances(alpha);
    expect(report.instances.map((i: { device_id: string }) => i.device_id)).toEqual([
      'alpha',
      'beta',
    ]);
    const mallory = await execute(alpha, { action: 'utils.echo', target: 'mallory' });
    expect(mallory.status).toBe(404);
  });

  it('shows the same counts, the connection and the instances in /metrics', async () => {
    // After the refusals above: the counters read the counts inspect.instances reports.
    for (const m of [alpha, beta]) {
      const metrics = await metricsOf(m);
      const report = await instances(m);
      expect(metrics.types.get('pipit_cluster_messages_refused_total')).toBe('counter');
      for (const [reason, count] of Object.entries(report.refused as Record<string, number>))
        expect({
          reason,
          count: sample(metrics, 'pipit_cluster_messages_refused_total', { reason }),
        }).toEqual({ reason, count });
      expect(
        sample(metrics, 'pipit_cluster_messages_refused_total', { reason: 'unsigned' }),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(metrics, 'pipit_cluster_connected')).toBe(1);
      expect(sample(metrics, 'pipit_cluster_instances')).toBe(2);
      expect(sample(metrics, 'pipit_cluster_requests_in_flight')).toBe(0);
      expect(sample(metrics, 'pipit_cluster_events_buffered')).toBe(0);
      expect(sample(metrics, 'pipit_cluster_events_lost_total', { reason: 'dropped' })).toBe(0);
      const events = report.events as Record<string, number>;
      expect(sample(metrics, 'pipit_cluster_events_total', { direction: 'published' })).toBe(
        events.published,
      );
      expect(sample(metrics, 'pipit_cluster_events_total', { direction: 'received' })).toBe(
        events.received,
      );
    }
    // beta fired the "after-forgeries" event: alpha received it through Redis.
    const alphaMetrics = await metricsOf(alpha);
    expect(
      sample(alphaMetrics, 'pipit_cluster_events_total', { direction: 'received' }),
    ).toBeGreaterThanOrEqual(1);
  });
});
