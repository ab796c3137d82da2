import type { Inbound } from './inbound.ts';
import type { ClusterClock } from './clock.ts';
import type { RedisLink } from './link.ts';
import { ReplayGuard } from './replay.ts';
import type { Seal } from './seal.ts';
import { StreamReader } from './stream-reader.ts';
import { EventWire } from './wire.ts';
import type { ClusterKeys } from './wire.ts';
import type { Logger } from '../core/logger.ts';
import { LocalBus } from '../events/bus.ts';
import type { Delivery, EventBus, Subscriber } from '../events/bus.ts';
import type { PipitEvent } from '../events/event.ts';
import { presentKind } from '../events/kinds.ts';
import { StreamOutbox } from './stream-outbox.ts';

/** How the bus reads and writes the `pipit:events` stream. */
export interface RedisBusOptions {
  link: RedisLink;
  seal: Seal;
  inbound: Inbound;
  keys: ClusterKeys;
  /** This instance: its device_id and its process' random id. */
  self: { deviceId: string; iid: string };
  log: Logger;
  /** The kinds' namespace this instance's clients see. */
  namespace: 'pipit' | 'platypush';
  /** The stream is trimmed to about this many events (XADD MAXLEN ~). */
  streamLength: number;
  /** On reconnecting, events missed up to this old are delivered; older ones are skipped. */
  catchUpMs: number;
  /** How far two clocks may differ (`clock_skew_seconds`): also the delivery delay allowed. */
  skewMs: number;
  /** The cluster's clock (Redis' TIME): events are dated and judged on it. */
  clock: ClusterClock;
  /** An event whose JSON is larger than this is delivered on this instance only. */
  maxEventBytes: number;
  /** Events kept in memory while Redis is unreachable, to publish when it is back. */
  bufferEvents: number;
}

/** Counters for `inspect.instances`. */
export interface RedisBusStats {
  published: number;
  received: number;
  /** Held in memory, waiting for Redis. */
  buffered: number;
  /** Dropped from a full buffer while Redis was unreachable (the oldest go first). */
  dropped: number;
  /** Missed while disconnected and older than the catch-up window when read. */
  skipped_old: number;
  /** Events trimmed from the stream before this instance read them (lost for it). */
  trimmed_unread: number;
  /** Larger than `maxEventBytes`: delivered on this instance only, never published. */
  too_large: number;
}

const READ_COUNT = 512;
// The stream is read at least this often, wake-up or not (an entry added by hand sends none).
const POLL_MS = 1_000;
// How far another instance's dating of an event may be off, beyond our own reading of Redis'
// clock: its last reading's half round trip, which it retakes past 100 ms (cluster/clock.ts).
const PEER_UNCERTAINTY_MS = 100;
// What the seal and the envelope add to an event's JSON in a stream entry.
const ENVELOPE_BYTES = 2_048;

/**
 * The event bus shared by the instances of a cluster, on a Redis Stream (`pipit:events`). An event
 * published here is delivered to this instance's subscribers at once, as the local bus does, and
 * appended to the stream (trimmed to about `streamLength`) unless its JSON is larger than
 * `maxEventBytes`; every instance reads the stream ({@link StreamReader}) and delivers the events
 * of the others, so each subscriber and hook gets each event once. Entries are sealed (HMAC) and
 * checked against replays; anything else in the stream is refused and counted.
 *
 * Events are dated and judged on the cluster's clock (Redis' TIME): an event is delivered when its
 * signed time is after this process started and at most `catchUpMs + skewMs` old, and its nonce
 * is new (nonces are kept as long as that window). The stream id plays no part: whoever can write
 * to Redis chooses it.
 *
 * When Redis is unreachable, local delivery goes on and up to `bufferEvents` events wait in memory
 * (the oldest dropped first, with a warning) to be published when it is back. An instance that
 * was cut off reads, when it reconnects, the events it missed that are still in the stream and
 * not older than `catchUpMs`.
 *
 * @example
 * const bus = new RedisBus({ link, seal, inbound, keys, self, log, clock, namespace: 'pipit', streamLength: 10_000, catchUpMs: 300_000, skewMs: 30_000, maxEventBytes: 65_536, bufferEvents: 1_000 });
 * bus.start();
 */
export class RedisBus implements EventBus {
  readonly #local: LocalBus;
  readonly #opts: RedisBusOptions;
  readonly #reader: StreamReader;
  readonly #guard: ReplayGuard;
  readonly #outbox: StreamOutbox;
  #stopListening: (() => void) | undefined;
  readonly #stats: Omit<RedisBusStats, 'buffered' | 'published' | 'dropped'> = {
    received: 0,
    skipped_old: 0,
    trimmed_unread: 0,
    too_large: 0,
  };
  #behind = false;
  #warnedTrimmed = 0;
  #warnedLarge = 0;

  constructor(opts: RedisBusOptions) {
    this.#opts = opts;
    this.#local = new LocalBus((err) => opts.log.warn({ err }, 'an event subscriber failed'));
    this.#guard = new ReplayGuard(opts.catchUpMs + opts.skewMs, opts.skewMs);
    this.#outbox = new StreamOutbox(opts);
    this.#reader = new StreamReader({
      link: opts.link,
      keys: opts.keys,
      clock: opts.clock,
      log: opts.log,
      count: READ_COUNT,
      maxEntryBytes: opts.maxEventBytes + ENVELOPE_BYTES,
      pollMs: POLL_MS,
      startedAtLocal: opts.clock.local(),
      onEntry: (id, m) => this.#receive(m),
      onTrimmed: (last, lost) => this.#trimmed(last, lost),
      onCaughtUp: () => (this.#behind = false),
    });
  }

  /** Starts reading the stream and publishing what waits in the buffer whenever Redis is back. */
  start(): void {
    this.#stopListening = this.#opts.link.onChange((up) => {
      if (up) void this.#outbox.flush();
    });
    this.#reader.start();
  }

  publish(event: PipitEvent, json?: string, opts?: { local?: boolean }): Promise<void> {
    const at = this.#opts.clock.now();
    // To the stream first: the other instances start their fan-out while this one does its own.
    // The stream carries Pipit's own kinds; `json` is in the clients' namespace.
    if (!opts?.local) {
      const wire =
        json !== undefined && this.#opts.namespace === 'pipit' ? json : JSON.stringify(event);
      const bytes = wire.length <= this.#opts.maxEventBytes / 3 ? 0 : Buffer.byteLength(wire);
      if (bytes > this.#opts.maxEventBytes) this.#tooLarge(event, bytes);
      else this.#outbox.send(wire);
    }
    const shown: Delivery = json === undefined ? this.#present(event) : { event, json: () => json };
    shown.at = at;
    this.#local.deliver(shown);
    return Promise.resolve();
  }

  subscribe(subscriber: Subscriber): () => void {
    return this.#local.subscribe(subscriber);
  }

  /** True from a read that found events lost to trimming until the reader reaches the stream's end. */
  get behind(): boolean {
    return this.#behind;
  }

  stats(): RedisBusStats {
    return { ...this.#stats, ...this.#outbox.counts, buffered: this.#outbox.buffered };
  }

  /**
   * Stops delivering and reading. The read loop ends when the link closes (its read is cut);
   * events still in the buffer are not published.
   */
  async close(): Promise<void> {
    this.#outbox.close();
    this.#stopListening?.();
    this.#reader.close();
    await this.#local.close();
  }

  /** Resolves once the events being written have been (or `timeoutMs` passed): shutdown. */
  settle(timeoutMs: number): Promise<void> {
    return this.#outbox.settle(timeoutMs);
  }

  #present(event: PipitEvent): Delivery {
    const { namespace } = this.#opts;
    let cached: string | undefined;
    return {
      event,
      json: () =>
        (cached ??= JSON.stringify(
          namespace === 'pipit'
            ? event
            : { ...event, args: { ...event.args, type: presentKind(event.args.type, namespace) } },
        )),
    };
  }

  // Said at most once a minute: a web hook flooded with large bodies would repeat it.
  #tooLarge(event: PipitEvent, bytes: number): void {
    this.#stats.too_large++;
    if (Date.now() - this.#warnedLarge < 60_000) return;
    this.#warnedLarge = Date.now();
    this.#opts.log.warn(
      { type: event.args.type, bytes, max_event_bytes: this.#opts.maxEventBytes },
      `an event of ${bytes} bytes (${event.args.type}) is larger than redis.max_event_bytes (${this.#opts.maxEventBytes}): delivered on this instance only, not to the others (further ones are counted in inspect.instances, events.too_large)`,
    );
  }

  // Said at most once a minute: a stream_length too small for the traffic would repeat it.
  #trimmed(last: string, lost: number): void {
    this.#stats.trimmed_unread += lost;
    this.#behind = true;
    if (Date.now() - this.#warnedTrimmed < 60_000) return;
    this.#warnedTrimmed = Date.now();
    this.#opts.log.warn(
      { key: this.#opts.keys.events, last_read: last, lost },
      `the event stream ${this.#opts.keys.events} was trimmed past the last event this instance read (${last}): ${lost} events after it are lost here; raise redis.stream_length (now ${this.#opts.streamLength}) or find what kept this instance from reading`,
    );
  }

  #receive(m: string | number | null): void {
    const { inbound, self, keys, clock } = this.#opts;
    if (typeof m === 'number') {
      inbound.refusals.refuse('oversized', { key: keys.events });
      return;
    }
    const msg = inbound.open(m ?? undefined, EventWire, keys.events);
    if (!msg || (msg.iid === self.iid && msg.from === self.deviceId)) return;
    // Dated before this process started: a copy of an event its previous run already handled.
    // The margin is what the two readings of Redis' clock may be off, no more: a fixed second
    // let a copy through after a restart quicker than that.
    const margin = this.#opts.clock.uncertaintyMs + PEER_UNCERTAINTY_MS;
    if (msg.ts < (this.#reader.startedAt ?? 0) - margin) {
      inbound.refusals.refuse('stale', { key: keys.events, from: msg.from });
      return;
    }
    const now = clock.now();
    if (msg.ts < now - this.#opts.catchUpMs - this.#opts.skewMs) {
      this.#stats.skipped_old++;
      return;
    }
    if (!inbound.fresh(msg, now, keys.events, this.#guard)) return;
    this.#stats.received++;
    const shown = this.#present(msg.event);
    shown.at = msg.ts;
    this.#local.deliver(shown);
  }
}
