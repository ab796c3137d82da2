import { randomBytes } from 'node:crypto';
import type { ClusterSettings } from '../config/redis.ts';
import type { ClaimOptions, ClusterPort, ClusterReport } from '../core/cluster-port.ts';
import type { Execute, ExecuteOptions, ExecuteResult } from '../core/execute.ts';
import type { Logger } from '../core/logger.ts';
import type { Request } from '../core/messages.ts';
import { pipitVersion } from '../lib/version.ts';
import { RedisBus } from './redis-bus.ts';
import { ClusterClock } from './clock.ts';
import { Inbound } from './inbound.ts';
import { Inbox } from './inbox.ts';
import { Instances } from './instances.ts';
import { RedisLink } from './link.ts';
import { Publisher } from './publisher.ts';
import { Refusals } from './refusals.ts';
import { ReplayGuard } from './replay.ts';
import { Requests } from './requests.ts';
import { Seal } from './seal.ts';
import { serveRequest } from './serve.ts';
import { LinkChecks } from './checks.ts';
import { OnceLocks } from './once.ts';
import { clusterKeys } from './wire.ts';

/** What a {@link Cluster} is built from. */
export interface ClusterOptions {
  settings: ClusterSettings;
  deviceId: string;
  log: Logger;
  /** The kinds' namespace of this instance's clients. */
  namespace: 'pipit' | 'platypush';
  /** The service's `execute()`, for requests from other instances (late-bound). */
  execute: () => Execute;
  /** This instance's enabled plugins, for its heartbeat. */
  plugins: () => string[];
}

/**
 * This instance's membership of a cluster of instances sharing one Redis (the `redis` section):
 * the shared event bus, requests routed by `target` and their answers, heartbeats, and the locks
 * behind `once: true`. Every message is sealed with `redis.secret` and checked on arrival. Redis
 * being down never stops local work: the connection is retried with backoff, remote requests fail
 * fast, events wait in a bounded buffer, and `ready` (hence `/readyz`) is false meanwhile.
 *
 * @example
 * const cluster = new Cluster({ settings, deviceId: 'kitchen', log, namespace: 'pipit', execute: () => services.execute, plugins });
 * cluster.start();
 * await cluster.report(); // { cluster: 'connected', instances: [...], ... }
 */
export class Cluster implements ClusterPort {
  readonly bus: RedisBus;
  readonly #self: { deviceId: string; iid: string };
  readonly #link: RedisLink;
  readonly #refusals: Refusals;
  readonly #instances: Instances;
  readonly #requests: Requests;
  readonly #inbox: Inbox;
  readonly #checks: LinkChecks;
  readonly #clock: ClusterClock;
  readonly #once: OnceLocks;

  constructor(opts: ClusterOptions) {
    const { settings, deviceId, log } = opts;
    const self = { deviceId, iid: randomBytes(6).toString('hex') };
    this.#self = self;
    const clusterLog = log.child({ component: 'cluster' });
    const link = new RedisLink({
      url: settings.url,
      name: deviceId,
      log: clusterLog,
      commandTimeoutMs: settings.command_timeout_seconds * 1000,
    });
    const keys = clusterKeys(settings.key_prefix);
    this.#checks = new LinkChecks(link, keys);
    const seal = new Seal(settings.secret, settings.previous_secrets);
    const skewMs = settings.clock_skew_seconds * 1000;
    const catchUpMs = settings.catch_up_seconds * 1000;
    const clock = new ClusterClock({ log: clusterLog });
    this.#clock = clock;
    this.#once = new OnceLocks({
      link,
      keys,
      clock,
      deviceId,
      log: clusterLog,
      ttlMs: catchUpMs + 2 * skewMs,
      skewMs,
    });
    this.#refusals = new Refusals(clusterLog);
    const inbound = new Inbound({
      seal,
      guard: new ReplayGuard(skewMs),
      refusals: this.#refusals,
    });
    this.#link = link;
    this.bus = new RedisBus({
      link,
      seal,
      inbound,
      keys,
      self,
      log: clusterLog,
      namespace: opts.namespace,
      streamLength: settings.stream_length,
      catchUpMs,
      skewMs,
      clock,
      maxEventBytes: settings.max_event_bytes,
      bufferEvents: settings.buffer_events,
    });
    this.#instances = new Instances({
      link,
      seal,
      inbound,
      keys,
      self,
      log: clusterLog,
      intervalMs: settings.heartbeat_seconds * 1000,
      skewMs,
      version: pipitVersion(),
      plugins: opts.plugins,
    });
    const publisher = new Publisher(link);
    this.#requests = new Requests({
      link,
      seal,
      publisher,
      log: clusterLog,
      instances: this.#instances,
      keys,
      self,
      timeoutMs: settings.request_timeout_seconds * 1000,
    });
    const serve = {
      seal,
      publisher,
      self,
      keys,
      log: clusterLog,
      execute: opts.execute,
      refusal: () => this.#instances.conflict(),
    };
    this.#inbox = new Inbox({
      link,
      inbound,
      keys,
      self,
      log: clusterLog,
      onRequest: (msg) => void serveRequest(msg, serve),
      onReply: (msg) => void this.#requests.answer(msg),
    });
  }

  /** Connects (in the background: an unreachable Redis is retried) and starts reading. */
  start(): void {
    this.#link.onChange((up) => {
      if (up) void this.#checks.onConnect().catch(() => undefined);
      else this.#requests.failAll(`the connection to Redis was lost (${this.#link.state.error})`);
    });
    // The clock is compared with Redis' at each connection and heartbeat (a skew is warned about).
    const syncClock = () => void this.#clock.sync(this.#link.command).catch(() => undefined);
    this.#link.onChange((up) => up && syncClock());
    this.#link.start();
    this.bus.start();
    this.#inbox.start();
    this.#instances.start(() => {
      syncClock();
      void this.#checks.tick().catch(() => undefined);
    });
  }

  /**
   * Connected, without a fault (see LinkChecks), with a device_id no other live instance has, and
   * not catching up after events were lost to the stream's trimming.
   */
  get ready(): boolean {
    return this.#link.usable && this.#instances.conflict() === null && !this.bus.behind;
  }

  /** Runs a request on the instance its `target` names (createExecute's `remote`). */
  remote = (request: Request, opts: ExecuteOptions): Promise<ExecuteResult> =>
    this.#requests.send(request, opts);

  /** The lock behind `once: true` (see OnceLocks). */
  claim(key: string, opts?: ClaimOptions): Promise<boolean> {
    return this.#once.claim(key, opts);
  }

  async report(): Promise<ClusterReport> {
    const state = this.#link.state;
    const conflict = state.connected ? this.#instances.conflict() : null;
    return {
      cluster: !state.connected
        ? 'unreachable'
        : state.faults.length || conflict
          ? 'faulty'
          : 'connected',
      redis: this.#link.url,
      error: state.error ?? conflict,
      since: new Date(state.since).toISOString(),
      self: this.#self.deviceId,
      instances: this.#instances.list(),
      refused: { ...this.#refusals.counts },
      events: { ...this.bus.stats() },
      requests_in_flight: this.#requests.inFlight,
    };
  }

  /** Leaves the cluster: removes the heartbeat, fails calls still waiting, closes the connections. */
  async close(): Promise<void> {
    await this.#instances.leave();
    this.#requests.failAll('this instance is shutting down');
    await this.bus.close();
    await this.bus.settle(1_000);
    await this.#link.close();
    this.#refusals.flush();
  }
}
