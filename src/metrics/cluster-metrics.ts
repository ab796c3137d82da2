import { Counter, Gauge } from 'prom-client';
import type { Registry as PromRegistry } from 'prom-client';
import type { ClusterReport } from '../core/cluster-port.ts';

/**
 * The cluster's state as metrics, read from its report at scrape time (nothing is counted twice:
 * the cluster keeps the counts `inspect.instances` shows):
 *
 * - `pipit_cluster_connected` 1 while Redis is reachable, else 0;
 * - `pipit_cluster_instances`: instances seen alive, this one included;
 * - `pipit_cluster_requests_in_flight`: requests sent to other instances, not answered yet;
 * - `pipit_cluster_events_total{direction}`: events `published` to the others and `received`;
 * - `pipit_cluster_events_buffered`: events held in memory while Redis is unreachable;
 * - `pipit_cluster_events_lost_total{reason}`: `dropped` from a full buffer, `skipped_old`
 *   (missed while disconnected, older than the catch-up window);
 * - `pipit_cluster_messages_refused_total{reason}`: messages read from Redis and refused
 *   (`unsigned`, `bad_signature`, `stale`, `replayed`...).
 *
 * Registered only on an instance with a `redis` section.
 *
 * @example
 * clusterMetrics(promRegistry, () => cluster.report());
 * // pipit_cluster_connected 1
 */
export function clusterMetrics(register: PromRegistry, report: () => Promise<ClusterReport>): void {
  const registers = [register];
  const gauge = (name: string, help: string, value: (r: ClusterReport) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        this.set(value(await report()));
      },
    });
  gauge(
    'pipit_cluster_connected',
    "Whether this instance reaches the cluster's Redis (1) or not (0).",
    (r) => (r.cluster === 'connected' ? 1 : 0),
  );
  gauge(
    'pipit_cluster_instances',
    'Instances of the cluster seen alive by their heartbeats, this one included.',
    (r) => r.instances.length,
  );
  gauge(
    'pipit_cluster_requests_in_flight',
    'Requests sent to other instances (by target) and not answered yet.',
    (r) => r.requests_in_flight,
  );
  gauge(
    'pipit_cluster_events_buffered',
    'Events held in memory while Redis is unreachable, published once it is back.',
    (r) => r.events.buffered ?? 0,
  );
  const counter = <L extends string>(
    name: string,
    help: string,
    label: L,
    values: (r: ClusterReport) => Record<string, number>,
  ) =>
    new Counter({
      name,
      help,
      labelNames: [label],
      registers,
      async collect() {
        const counts = values(await report());
        this.reset();
        for (const [value, count] of Object.entries(counts))
          this.inc({ [label]: value } as Record<L, string>, count);
      },
    });
  counter(
    'pipit_cluster_events_total',
    'Events published to the other instances, and received from them.',
    'direction',
    (r) => ({ published: r.events.published ?? 0, received: r.events.received ?? 0 }),
  );
  counter(
    'pipit_cluster_events_lost_total',
    'Events lost: dropped from a full buffer while Redis was unreachable, or missed while disconnected and older than the catch-up window.',
    'reason',
    (r) => ({ dropped: r.events.dropped ?? 0, skipped_old: r.events.skipped_old ?? 0 }),
  );
  counter(
    'pipit_cluster_messages_refused_total',
    'Messages read from Redis and refused, by reason (unsigned, bad_signature, stale, replayed...).',
    'reason',
    (r) => r.refused,
  );
}
