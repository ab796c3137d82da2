import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Inbound } from '../cluster/inbound.ts';
import type { RedisLink } from '../cluster/link.ts';
import { payloadJson } from '../cluster/seal.ts';
import type { Seal } from '../cluster/seal.ts';
import { EventWire, KEYS } from '../cluster/wire.ts';
import { Fifo } from '../core/fifo.ts';
import type { Logger } from '../core/logger.ts';
import { LocalBus } from './bus.ts';
import type { Delivery, EventBus, Subscriber } from './bus.ts';
import type { PipitEvent } from './event.ts';
import { presentKind } from './kinds.ts';

/** How the bus reads and writes the `pipit:events` stream. */
export interface RedisBusOptions {
  link: RedisLink;
  seal: Seal;
  inbound: Inbound;
  /** This instance: its device_id and its process' random id. */
  self: { deviceId: string; iid: string };
  log: Logger;
  /** The kinds' namespace this instance's clients see. */
  namespace: 'pipit' | 'platypush';
  /** The stream is trimmed to about this many events (XADD MAXLEN ~). */
  streamLength: number;
  /** On reconnecting, events missed up to this old are delivered; older ones are skipped. */
  catchUpMs: number;
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
}

interface Outgoing {
  nonce: string;
  json: string;
}

const READ_COUNT = '512';
const RETRY_MS = 1_000;

/**
 * The event bus shared by the instances of a cluster, on a Redis Stream (`pipit:events`). An event
 * published here is delivered to this instance's subscribers at once, as the local bus does, and
 * appended to the stream (XADD, trimmed to about `streamLength`); every instance reads the stream
 * (XREAD BLOCK from the last id it saw) and delivers the events of the others, so each subscriber
 * and hook gets each event once. Entries are sealed (HMAC) and checked against replays; anything
 * else in the stream is refused and counted.
 *
 * When Redis is unreachable, local delivery goes on and up to `bufferEvents` events wait in memory
 * (the oldest dropped first, with a warning) to be published when it is back. An instance that
 * was cut off reads, when it reconnects, the events it missed that are still in the stream and
 * not older than `catchUpMs`.
 *
 * @example
 * const bus = new RedisBus({ link, seal, inbound, self, log, namespace: 'pipit', streamLength: 10_000, catchUpMs: 300_000, bufferEvents: 1_000 });
 * bus.start();
 */
export class RedisBus implements EventBus {
  readonly #local: LocalBus;
  readonly #opts: RedisBusOptions;
  readonly #startedAt = Date.now();
  readonly #buffer = new Fifo<Outgoing>();
  #flushing = false;
  #closed = false;
  #warnedFull = false;
  #stopListening: (() => void) | undefined;
  readonly #inFlight = new Set<Promise<unknown>>();
  #retry: NodeJS.Timeout | undefined;
  readonly #stats: Omit<RedisBusStats, 'buffered'> = {
    published: 0,
    received: 0,
    dropped: 0,
    skipped_old: 0,
  };

  constructor(opts: RedisBusOptions) {
    this.#opts = opts;
    this.#local = new LocalBus((err) => opts.log.warn({ err }, 'an event subscriber failed'));
  }

  /** Starts reading the stream and publishing what waits in the buffer whenever Redis is back. */
  start(): void {
    this.#stopListening = this.#opts.link.onChange((up) => {
      if (up) void this.#flush();
    });
    void this.#readLoop();
  }

  publish(event: PipitEvent, json?: string): Promise<void> {
    // To the stream first: the other instances start their fan-out while this one does its own.
    // The stream carries Pipit's own kinds; `json` is in the clients' namespace.
    const wire =
      json !== undefined && this.#opts.namespace === 'pipit' ? json : JSON.stringify(event);
    this.#send({ nonce: randomUUID(), json: wire });
    this.#local.deliver(json === undefined ? this.#present(event) : { event, json: () => json });
    return Promise.resolve();
  }

  subscribe(subscriber: Subscriber): () => void {
    return this.#local.subscribe(subscriber);
  }

  stats(): RedisBusStats {
    return { ...this.#stats, buffered: this.#buffer.length };
  }

  /**
   * Stops delivering and reading. The read loop ends when the link closes (its blocking read is
   * cut); events still in the buffer are not published.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#stopListening?.();
    await this.#local.close();
  }

  /** Resolves once the events being written have been (or `timeoutMs` passed): shutdown. */
  async settle(timeoutMs: number): Promise<void> {
    if (!this.#inFlight.size) return;
    await Promise.race([Promise.allSettled([...this.#inFlight]), delay(timeoutMs)]);
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

  // Sealed at the time it is sent, so that an event that waited out an outage is still fresh.
  #sealed(item: Outgoing): string {
    const { self } = this.#opts;
    const fields = {
      v: 1,
      kind: 'event',
      from: self.deviceId,
      iid: self.iid,
      ts: Date.now(),
      nonce: item.nonce,
    };
    return this.#opts.seal.seal(payloadJson(fields, 'event', item.json));
  }

  #send(item: Outgoing): void {
    const { link } = this.#opts;
    if (!link.connected || this.#buffer.length || this.#flushing) return this.#hold([item]);
    const sent = link.command
      .xadd(KEYS.events, 'MAXLEN', '~', this.#opts.streamLength, '*', 'm', this.#sealed(item))
      .then(
        () => void this.#stats.published++,
        () => this.#hold([item]),
      );
    this.#inFlight.add(sent);
    void sent.finally(() => this.#inFlight.delete(sent));
  }

  #hold(items: Outgoing[]): void {
    for (const item of items) this.#buffer.push(item);
    this.#retryLater();
    const excess = this.#buffer.length - this.#opts.bufferEvents;
    if (excess <= 0) return;
    this.#stats.dropped += this.#buffer.dropOldest(excess);
    if (!this.#warnedFull) {
      this.#warnedFull = true;
      this.#opts.log.warn(
        { buffer_events: this.#opts.bufferEvents },
        `Redis is unreachable and ${this.#opts.bufferEvents} events already wait for it: the oldest are dropped for the other instances (they were delivered here); raise redis.buffer_events to keep more`,
      );
    }
  }

  // Publishes what waited, in order; what fails waits again for the next reconnection.
  async #flush(): Promise<void> {
    if (this.#flushing || !this.#buffer.length) return;
    this.#flushing = true;
    try {
      while (this.#buffer.length && this.#opts.link.connected && !this.#closed) {
        const batch = this.#buffer.take(256);
        const pipeline = this.#opts.link.command.pipeline();
        for (const item of batch)
          pipeline.xadd(
            KEYS.events,
            'MAXLEN',
            '~',
            this.#opts.streamLength,
            '*',
            'm',
            this.#sealed(item),
          );
        const results = (await pipeline.exec().catch(() => null)) ?? [];
        const failed = batch.filter((_, i) => !results[i] || results[i][0]);
        this.#stats.published += batch.length - failed.length;
        if (failed.length) {
          this.#buffer.putBack(failed);
          break;
        }
      }
      if (!this.#buffer.length) this.#warnedFull = false;
    } finally {
      this.#flushing = false;
      this.#retryLater();
    }
  }

  // Redis refused while connected (out of memory, a read-only replica...): try again in a while.
  // While disconnected, the reconnection flushes.
  #retryLater(): void {
    if (!this.#buffer.length || this.#closed || !this.#opts.link.connected) return;
    this.#retry ??= setTimeout(() => {
      this.#retry = undefined;
      void this.#flush();
    }, RETRY_MS).unref();
  }

  // From the time this instance started: events published while Redis was unreachable at start
  // are still read when it comes up.
  async #readLoop(): Promise<void> {
    const { link } = this.#opts;
    let last = `${this.#startedAt}-0`;
    while (!this.#closed) {
      await link.ready(link.events);
      if (this.#closed) return;
      try {
        const reply = (await link.events.call(
          'XREAD',
          'COUNT',
          READ_COUNT,
          'BLOCK',
          '0',
          'STREAMS',
          KEYS.events,
          last,
        )) as [string, [string, string[]][]][] | null;
        for (const [, entries] of reply ?? [])
          for (const [id, fields] of entries) {
            last = id;
            this.#receive(id, fields);
          }
      } catch {
        // The connection dropped (or closed): wait for it and read on from the last id.
        if (!this.#closed) await delay(20);
      }
    }
  }

  #receive(id: string, fields: string[]): void {
    const { inbound, self } = this.#opts;
    const at = Number(id.slice(0, id.indexOf('-')));
    const index = fields.indexOf('m');
    const text = index >= 0 ? fields[index + 1] : undefined;
    const msg = inbound.open(text, EventWire, KEYS.events);
    if (!msg || (msg.iid === self.iid && msg.from === self.deviceId)) return;
    if (at < Date.now() - this.#opts.catchUpMs) {
      this.#stats.skipped_old++;
      return;
    }
    if (!inbound.fresh(msg, at, KEYS.events)) return;
    this.#stats.received++;
    this.#local.deliver(this.#present(msg.event));
  }
}
