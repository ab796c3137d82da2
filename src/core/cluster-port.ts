/** One instance as `inspect.instances` lists it. */
export interface InstanceInfo {
  device_id: string;
  /** True for the instance answering. */
  self: boolean;
  version: string;
  /** Its enabled plugins. */
  plugins: string[];
  /** ISO 8601. */
  started_at: string;
  /** ISO 8601: its last heartbeat (now, for this instance). */
  last_seen: string;
}

/** What `inspect.instances` answers. */
export interface ClusterReport {
  /**
   * `off`: no `redis` section; `connected`; `unreachable`: configured, but Redis cannot be reached;
   * `faulty`: reached, but unusable (Redis Cluster, a missing ACL permission, a key of another type,
   * another live instance with this device_id): `error` says which.
   */
  cluster: 'off' | 'connected' | 'unreachable' | 'faulty';
  /** The Redis URL, without its password. */
  redis: string | null;
  /** Why Redis is unreachable or the cluster faulty, when it is. */
  error: string | null;
  /** ISO 8601: since when the cluster is in this state. */
  since: string | null;
  /** This instance's device_id. */
  self: string;
  /** The instances seen alive (while unreachable: as last seen). */
  instances: InstanceInfo[];
  /** Messages refused from Redis, by reason (unsigned, bad_signature, stale, replayed...). */
  refused: Record<string, number>;
  /** Events published to and received from the other instances, and waiting for Redis. */
  events: Record<string, number>;
  /** Requests sent to other instances and still waiting for their answer. */
  requests_in_flight: number;
}

/**
 * What the rest of Pipit sees of the cluster (src/cluster implements it; core does not import it):
 * whether it is connected, a report for `inspect.instances`, and the cluster-wide locks behind
 * `once: true` hooks and crons.
 *
 * @example
 * if (await services.cluster?.claim(`cron:Nightly:${scheduledAt}`)) await job.run();
 */
export interface ClusterPort {
  /** True while Redis is reachable and the cluster usable (what `/readyz` reports). */
  readonly ready: boolean;
  report(): Promise<ClusterReport>;
  /**
   * Takes the lock named `key` for the whole cluster: true for exactly one caller (the first);
   * false for the others, and while Redis is unreachable (nobody can know who ran it then).
   */
  claim(key: string, opts?: ClaimOptions): Promise<boolean>;
}

/**
 * When what a `once` lock is taken for happened, so that a claim made too late is refused (the
 * lock of whoever ran it may be gone by then).
 *
 * @example
 * await cluster.claim(`hook:Door:${event.id}`, { at: delivery.at });
 * await cluster.claim(`cron:Nightly:${due}`, { at: due, local: true, maxAgeMs: periodMs / 2 });
 */
export interface ClaimOptions {
  /** Epoch ms: on the cluster's clock (an event's `Delivery.at`), or this machine's with `local`. */
  at?: number | undefined;
  local?: boolean;
  /** Refused when claimed later than this after `at` (the lock's own lifetime also bounds it). */
  maxAgeMs?: number;
}
