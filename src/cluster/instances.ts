import { randomUUID } from 'node:crypto';
import type { InstanceInfo } from '../core/cluster-port.ts';
import type { Logger } from '../core/logger.ts';
import type { Inbound } from './inbound.ts';
import type { RedisLink } from './link.ts';
import type { Seal } from './seal.ts';
import { HeartbeatWire, KEYS } from './wire.ts';

/** What {@link Instances} needs. */
export interface InstancesOptions {
  link: RedisLink;
  seal: Seal;
  inbound: Inbound;
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

/**
 * The instances of the cluster, from their heartbeats. Every `intervalMs` this instance writes its
 * sealed announcement (device_id, version, plugins, start time) into the `pipit:instances` hash
 * and reads everyone's; an instance whose last heartbeat is older than three of its intervals is
 * gone (and its field removed). A target not seen yet is looked up in Redis before a request to it
 * is refused, so an instance that just started is reachable at once.
 *
 * @example
 * const instances = new Instances({ link, seal, inbound, self, log, intervalMs: 2000, version, plugins });
 * instances.start();
 * await instances.has('hall'); // true while hall beats
 */
export class Instances {
  readonly #opts: InstancesOptions;
  readonly #startedAt = Date.now();
  readonly #known = new Map<string, HeartbeatWire>();
  #timer: NodeJS.Timeout | undefined;
  #warnedTwin = false;

  constructor(opts: InstancesOptions) {
    this.#opts = opts;
  }

  start(): void {
    const beat = () => void this.beat().catch(() => undefined);
    this.#opts.link.onChange((up) => {
      if (up) beat();
    });
    this.#timer = setInterval(beat, this.#opts.intervalMs).unref();
  }

  /** Announces this instance and reads everyone's announcements. */
  async beat(): Promise<void> {
    const { link, seal, self } = this.#opts;
    if (!link.connected) return;
    const payload = {
      v: 1,
      kind: 'heartbeat',
      from: self.deviceId,
      iid: self.iid,
      ts: Date.now(),
      nonce: randomUUID(),
      version: this.#opts.version,
      plugins: this.#opts.plugins(),
      started_at: this.#startedAt,
      interval_ms: this.#opts.intervalMs,
    };
    const results = await link.command
      .pipeline()
      .hset(KEYS.instances, self.deviceId, seal.seal(JSON.stringify(payload)))
      .hgetall(KEYS.instances)
      .exec();
    const all = results?.[1]?.[1];
    if (all && typeof all === 'object') this.#read(all as Record<string, string>);
  }

  /** True when `deviceId` is alive (looked up in Redis when not seen yet). */
  async has(deviceId: string): Promise<boolean> {
    if (this.#alive(this.#known.get(deviceId))) return true;
    const { link, inbound } = this.#opts;
    if (!link.connected) return false;
    const text = await link.command.hget(KEYS.instances, deviceId).catch(() => null);
    if (text === null) return false;
    const beat = inbound.open(text, HeartbeatWire, KEYS.instances);
    if (!beat || beat.from !== deviceId || !this.#alive(beat)) return false;
    this.#known.set(deviceId, beat);
    return true;
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

  /** Stops announcing and removes this instance's field, so others know at once. */
  async leave(): Promise<void> {
    clearInterval(this.#timer);
    const { link, self } = this.#opts;
    if (link.connected)
      await link.command.hdel(KEYS.instances, self.deviceId).catch(() => undefined);
  }

  #alive(beat: HeartbeatWire | undefined): boolean {
    if (!beat) return false;
    const age = Date.now() - beat.ts;
    return age <= MISSED_BEATS * beat.interval_ms + 1_000 && age >= -this.#opts.skewMs;
  }

  #read(all: Record<string, string>): void {
    const { inbound, self, link } = this.#opts;
    const stale: string[] = [];
    this.#known.clear();
    for (const [field, text] of Object.entries(all)) {
      const beat = inbound.open(text, HeartbeatWire, `${KEYS.instances} ${field}`);
      if (!beat || beat.from !== field) {
        if (beat) inbound.refusals.refuse('wrong_target', { key: KEYS.instances, from: beat.from });
        stale.push(field);
        continue;
      }
      if (!this.#alive(beat)) {
        stale.push(field);
        continue;
      }
      if (field === self.deviceId && beat.iid !== self.iid && !this.#warnedTwin) {
        this.#warnedTwin = true;
        this.#opts.log.error(
          { device_id: field },
          `another instance also calls itself "${field}": give each instance its own device_id, or requests and events will go astray`,
        );
      }
      this.#known.set(field, beat);
    }
    // Gone (or never valid): removed for everyone. A field rewritten meanwhile comes back at its
    // owner's next heartbeat.
    const others = stale.filter((f) => f !== self.deviceId);
    if (others.length) void link.command.hdel(KEYS.instances, ...others).catch(() => undefined);
  }
}
