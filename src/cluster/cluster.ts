import { randomBytes } from 'node:crypto';
import type { ClusterSettings } from '../config/redis.ts';
import type { ClusterPort, ClusterReport } from '../core/cluster-port.ts';
import type { Execute, ExecuteOptions, ExecuteResult } from '../core/execute.ts';
import type { Logger } from '../core/logger.ts';
import type { Request } from '../core/messages.ts';
import { pipitVersion } from '../core/version.ts';
import { RedisBus } from '../events/redis-bus.ts';
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
import { KEYS } from './wire.ts';

// How long a `once` lock waits for Redis to come back before the run is skipped.
const CLAIM_WAIT_MS = 2_000;

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
  readonly #opts: ClusterOptions;
  readonly #self: { deviceId: string; iid: string };
  readonly #link: RedisLink;
  readonly #refusals: Refusals;
  readonly #instances: Instances;
  readonly #requests: Requests;
  readonly #inbox: Inbox;
  #warnedClaim = 0;

  constructor(opts: ClusterOptions) {
    this.#opts = opts;
    const { settings, deviceId, log } = opts;
    const self = { deviceId, iid: randomBytes(6).toString('hex') };
    this.#self = self;
    const clusterLog = log.child({ component: 'cluster' });
    const link = new RedisLink({ url: settings.url, name: deviceId, log: clusterLog });
    const seal = new Seal(settings.secret);
    const skewMs = settings.clock_skew_seconds * 1000;
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
      self,
      log: clusterLog,
      namespace: opts.namespace,
      streamLength: settings.stream_length,
      catchUpMs: settings.catch_up_seconds * 1000,
      bufferEvents: settings.buffer_events,
    });
    this.#instances = new Instances({
      link,
      seal,
      inbound,
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
      self,
      timeoutMs: settings.request_timeout_seconds * 1000,
    });
    const serve = { seal, publisher, self, log: clusterLog, execute: opts.execute };
    this.#inbox = new Inbox({
      link,
      inbound,
      self,
      log: clusterLog,
      onRequest: (msg) => void serveRequest(msg, serve),
      onReply: (msg) => void this.#requests.answer(msg),
    });
  }

  /** Connects (in the background: an unreachable Redis is retried) and starts reading. */
  start(): void {
    this.#link.onChange((up) => {
      if (!up) this.#requests.failAll('the connection to Redis was lost');
    });
    this.#link.start();
    this.bus.start();
    this.#inbox.start();
    this.#instances.start();
  }

  get ready(): boolean {
    return this.#link.connected;
  }

  /** Runs a request on the instance its `target` names (createExecute's `remote`). */
  remote = (request: Request, opts: ExecuteOptions): Promise<ExecuteResult> =>
    this.#requests.send(request, opts);

  async claim(key: string): Promise<boolean> {
    const ttl = 2 * this.#opts.settings.clock_skew_seconds * 1000;
    try {
      // An event read just after a reconnection may come before the command connection is back.
      if (!(await this.#link.whenConnected(CLAIM_WAIT_MS))) throw new Error('Redis is unreachable');
      const set = await this.#link.command.set(
        KEYS.once(key),
        this.#self.deviceId,
        'PX',
        ttl,
        'NX',
      );
      return set === 'OK';
    } catch (err) {
      // Once a minute at most: a `once` cron every second would otherwise fill the log.
      if (Date.now() - this.#warnedClaim > 60_000) {
        this.#warnedClaim = Date.now();
        this.#opts.log.warn(
          { err, key },
          `skipped "${key}" (once: true): Redis is unreachable, so this instance cannot know whether another one ran it`,
        );
      }
      return false;
    }
  }

  async report(): Promise<ClusterReport> {
    const state = this.#link.state;
    return {
      cluster: state.connected ? 'connected' : 'unreachable',
      redis: this.#link.url,
      error: state.error,
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
