import { randomUUID } from 'node:crypto';
import type { InstanceInfo } from '../core/cluster-port.ts';
import type { Logger } from '../core/logger.ts';
import type { Inbound } from './inbound.ts';
import type { RedisLink } from './link.ts';
import type { Seal } from './seal.ts';
import { HeartbeatWire } from './wire.ts';
import type { ClusterKeys } from './wire.ts';

/** What {@link Instances} needs. */
export interface InstancesOptions {
  link: RedisLink;
  seal: Seal;
  inbound: Inbound;
  keys: ClusterKeys;
  self: { deviceId: string; iid: string };
  log: Logger;
  intervalMs: number;
  /** How far ahead of this clock a heartbeat may be dated. */
  skewMs: number;
  version: string;
  plugins: () => string[];
}

// An instance is gone once it has missed this many heartbeats (of its own interval).
const MISSED_BEATS = 3;
// Index entries older than this are removed: far longer than any heartbeat key lives
// (3 × 300 s + 1 s at most), so only entries whose key has expired go.
const INDEX_KEEP_MS = 3_600_000;

/**
 * The instances of the cluster, from their heartbeats. Every `intervalMs` this instance writes its
 * sealed announcement (device_id, version, plugins, start time) into a key of its own,
 * `<prefix>:instance:<device_id>:<iid>`, that expires after three missed beats, names it in the
 * `<prefix>:members` index, and reads everyone's. No instance deletes or rewrites another's
 * heartbeat: one with another secret (or a stale one) only fails to be verified, and expires by
 * itself. A target not seen yet is looked up in Redis before a request to it is refused, so an
 * instance that just started is reachable at once.
 *
 * Two live instances with the same device_id (a cloned SD card) are a conflict: both log an error,
 * are not ready and refuse routed requests until one of them is gone.
 *
 * @example
 * const instances = new Instances({ link, seal, inbound, keys, self, log, intervalMs: 2000, skewMs, version, plugins });
 * instances.start();
 * await instances.has('hall'); // true while hall beats
 */
export class Instances {
  readonly #opts: InstancesOptions;
  readonly #startedAt = Date.now();
  readonly #known = new Map<string, HeartbeatWire>();
  #timer: NodeJS.Timeout | undefined;
  #checked = false;
  #twin: { iid: string; confirmed: boolean } | undefined;
  #onBeat: (() => void) | undefined;

  constructor(opts: InstancesOptions) {
    this.#opts = opts;
  }

  /** Beats at once when Redis is (back) up, then every interval; `onBeat` runs after each one. */
  start(onBeat?: () => void): void {
    this.#onBeat = onBeat;
    const beat = () => void this.beat().catch(() => undefined);
    this.#opts.link.onChange((up) => {
      if (up) beat();
    });
    this.#timer = setInterval(beat, this.#opts.intervalMs).unref();
  }

  /** Announces this instance and reads everyone's announcements. */
  async beat(): Promise<void> {
    const { link, seal, self, keys } = this.#opts;
    try {
      if (!link.connected) return;
      const now = Date.now();
      const payload = {
        v: 1,
        kind: 'heartbeat',
        from: self.deviceId,
        iid: self.iid,
        ts: now,
        nonce: randomUUID(),
        version: this.#opts.version,
        plugins: this.#opts.plugins(),
        started_at: this.#startedAt,
        interval_ms: this.#opts.intervalMs,
      };
      const own = keys.instance(self.deviceId, self.iid);
      // The key first, then its index entry: whoever finds the entry finds the key.
      const results = await link.command
        .pipeline()
        .set(own, seal.seal(JSON.stringify(payload)), 'PX', this.#ttlMs(this.#opts.intervalMs))
        .zadd(keys.members, now, own)
        .zremrangebyscore(keys.members, '-inf', now - INDEX_KEEP_MS)
        .exec();
      const failed = results?.find(([err]) => err)?.[0];
      if (failed) throw failed;
      await this.#read();
    } finally {
      this.#onBeat?.();
    }
  }

  /** True when `deviceId` is alive (looked up in Redis when not seen yet). */
  async has(deviceId: string): Promise<boolean> {
    if (this.#alive(this.#known.get(deviceId))) return true;
    if (!this.#opts.link.connected) return false;
    await this.#read().catch(() => undefined);
    return this.#alive(this.#known.get(deviceId));
  }

  /**
   * Why routed requests are refused on this instance, or null: another live instance has the same
   * device_id, or the first heartbeat has not yet checked that.
   */
  conflict(): string | null {
    const id = this.#opts.self.deviceId;
    if (this.#twin)
      return `another instance also runs as "${id}" (instance id ${this.#twin.iid}; this one is ${this.#opts.self.iid}): a cloned system? Give each instance its own device_id; until then both refuse requests routed to them and /readyz answers 503`;
    if (!this.#checked)
      return `instance "${id}" has not yet checked that no other instance has its device_id`;
    return null;
  }

  /** The instances alive as last seen, this one first, then by name. */
  list(): InstanceInfo[] {
    const now = Date.now();
    const others = [...this.#known.values()]
      .filter((beat) => beat.from !== this.#opts.self.deviceId && this.#alive(beat))
      .sort((a, b) => a.from.localeCompare(b.from))
      .map((beat) => ({
        device_id: beat.from,
        self: false,
        version: beat.version,
        plugins: beat.plugins,
        started_at: new Date(beat.started_at).toISOString(),
        last_seen: new Date(beat.ts).toISOString(),
      }));
    return [
      {
        device_id: this.#opts.self.deviceId,
        self: true,
        version: this.#opts.version,
        plugins: this.#opts.plugins(),
        started_at: new Date(this.#startedAt).toISOString(),
        last_seen: new Date(now).toISOString(),
      },
      ...others,
    ];
  }

  /** Names of the instances alive, for error messages. */
  names(): string[] {
    return this.list().map((i) => (i.self ? `${i.device_id} (this one)` : i.device_id));
  }

  /** Stops announcing and removes this instance's own heartbeat, so others know at once. */
  async leave(): Promise<void> {
    clearInterval(this.#timer);
    const { link, self, keys } = this.#opts;
    const own = keys.instance(self.deviceId, self.iid);
    if (link.connected)
      await link.command
        .pipeline()
        .del(own)
        .zrem(keys.members, own)
        .exec()
        .catch(() => undefined);
  }

  #ttlMs(intervalMs: number): number {
    return Math.ceil(MISSED_BEATS * intervalMs + 1_000);
  }

  #alive(beat: HeartbeatWire | undefined): boolean {
    if (!beat) return false;
    const age = Date.now() - beat.ts;
    return age <= this.#ttlMs(beat.interval_ms) && age >= -this.#opts.skewMs;
  }

  // Everyone's heartbeat: the index, then the keys it names. What does not verify is refused (and
  // counted), never removed: it expires by itself.
  async #read(): Promise<void> {
    const { link, keys, inbound, self } = this.#opts;
    const names = await link.command.zrange(keys.members, '0', '-1');
    const texts = names.length ? await link.command.mget(...names) : [];
    const prefix = keys.instance('', '').slice(0, -2);
    const seen = new Map<string, HeartbeatWire>();
    let twin: HeartbeatWire | undefined;
    names.forEach((name, i) => {
      const text = texts[i];
      if (text === null || text === undefined || !name.startsWith(`${prefix}:`)) return;
      const beat = inbound.open(text, HeartbeatWire, name);
      if (!beat) return;
      if (name !== keys.instance(beat.from, beat.iid)) {
        inbound.refusals.refuse('wrong_target', { key: name, from: beat.from });
        return;
      }
      if (!this.#alive(beat)) return;
      if (beat.from === self.deviceId) {
        if (beat.iid !== self.iid && (!twin || beat.ts > twin.ts)) twin = beat;
        return;
      }
      const before = seen.get(beat.from);
      if (!before || beat.ts > before.ts) seen.set(beat.from, beat);
    });
    this.#known.clear();
    for (const [name, beat] of seen) this.#known.set(name, beat);
    this.#checked = true;
    this.#noteTwin(twin);
  }

  // A twin that beat after this instance started is certainly alive: logged as an error. One seen
  // only before may be this device's previous process, killed: refused meanwhile, logged only if it
  // beats again (it expires by itself otherwise).
  #noteTwin(twin: HeartbeatWire | undefined): void {
    const { log, self } = this.#opts;
    const before = this.#twin;
    if (!twin) {
      if (before) {
        this.#twin = undefined;
        if (before.confirmed)
          log.info(
            { device_id: self.deviceId, other_iid: before.iid },
            `the other instance running as "${self.deviceId}" is gone: requests routed here are served again`,
          );
      }
      return;
    }
    const confirmed = twin.ts > this.#startedAt || twin.started_at >= this.#startedAt;
    const wasConfirmed = before?.iid === twin.iid && before.confirmed;
    this.#twin = { iid: twin.iid, confirmed: confirmed || wasConfirmed };
    if (confirmed && !wasConfirmed)
      log.error(
        { device_id: self.deviceId, other_iid: twin.iid, other_started_at: twin.started_at },
        `another instance also runs as "${self.deviceId}" (started ${new Date(twin.started_at).toISOString()}): a cloned system? Give each instance its own device_id; until then both refuse requests routed to them and /readyz answers 503`,
      );
  }
}
