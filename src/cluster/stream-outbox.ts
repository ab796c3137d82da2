import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { ClusterClock } from './clock.ts';
import type { RedisLink } from './link.ts';
import { payloadJson } from './seal.ts';
import type { Seal } from './seal.ts';
import { FAR_AHEAD_MS, streamCommands, streamPipeline } from './stream.ts';
import type { ClusterKeys } from './wire.ts';
import { Fifo } from '../lib/fifo.ts';
import type { Logger } from '../core/logger.ts';

/** What {@link StreamOutbox} needs. */
export interface StreamOutboxOptions {
  link: RedisLink;
  seal: Seal;
  keys: ClusterKeys;
  self: { deviceId: string; iid: string };
  log: Logger;
  clock: ClusterClock;
  /** The stream is trimmed to about this many events (XADD MAXLEN ~). */
  streamLength: number;
  /** Events kept in memory while Redis is unreachable, to publish when it is back. */
  bufferEvents: number;
}

interface Outgoing {
  nonce: string;
  json: string;
}

const RETRY_MS = 1_000;

/**
 * The publishing side of {@link RedisBus}: each event sealed (dated on the cluster's clock when it
 * is sent) and added to the stream by the add script, which wakes the readers and recreates a
 * stream whose id was pushed far ahead of Redis' clock. While Redis is unreachable up to
 * `bufferEvents` events wait in memory (the oldest dropped first, with a warning), published in
 * order when it is back.
 *
 * @example
 * const outbox = new StreamOutbox({ link, seal, keys, self, log, clock, streamLength: 10_000, bufferEvents: 1_000 });
 * outbox.send('{"type":"event",...}');
 */
export class StreamOutbox {
  readonly #opts: StreamOutboxOptions;
  readonly #buffer = new Fifo<Outgoing>();
  readonly #inFlight = new Set<Promise<unknown>>();
  #flushing = false;
  #closed = false;
  #warnedFull = false;
  #warnedReset = 0;
  #retry: NodeJS.Timeout | undefined;
  /** Published to the stream; dropped from a full buffer. */
  readonly counts = { published: 0, dropped: 0 };

  constructor(opts: StreamOutboxOptions) {
    this.#opts = opts;
  }

  /** Events waiting for Redis. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** Publishes an event (its JSON in Pipit's namespace), or keeps it for when Redis is back. */
  send(json: string): void {
    this.#send({ nonce: randomUUID(), json });
  }

  /** Publishes what waits (called when Redis is back). */
  flush(): Promise<void> {
    return this.#flush();
  }

  /** Stops retrying; what is still buffered is not published. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
  }

  /** Resolves once the events being written have been (or `timeoutMs` passed): shutdown. */
  async settle(timeoutMs: number): Promise<void> {
    if (!this.#inFlight.size) return;
    await Promise.race([Promise.allSettled([...this.#inFlight]), delay(timeoutMs)]);
  }

  // Sealed at the time it is sent, so that an event that waited out an outage is still fresh.
  #sealed(item: Outgoing): string {
    const { self } = this.#opts;
    const fields = {
      v: 1,
      kind: 'event',
      from: self.deviceId,
      iid: self.iid,
      ts: this.#opts.clock.now(),
      nonce: item.nonce,
    };
    return this.#opts.seal.seal(payloadJson(fields, 'event', item.json));
  }

  #send(item: Outgoing): void {
    const { link, keys, streamLength } = this.#opts;
    if (!link.connected || this.#buffer.length || this.#flushing) return this.#hold([item]);
    const sent = streamCommands(link.command)
      .pipitStreamAdd(keys.events, streamLength, this.#sealed(item), FAR_AHEAD_MS, keys.eventsWake)
      .then(
        ([, reset]) => {
          this.counts.published++;
          this.#reset(reset);
        },
        () => this.#hold([item]),
      );
    this.#inFlight.add(sent);
    void sent.finally(() => this.#inFlight.delete(sent));
  }

  // The publication found the stream's last id far ahead of Redis' clock and recreated it.
  #reset(dropped: number): void {
    if (dropped < 0 || Date.now() - this.#warnedReset < 60_000) return;
    this.#warnedReset = Date.now();
    this.#opts.log.warn(
      { key: this.#opts.keys.events, dropped },
      `the event stream ${this.#opts.keys.events} had an id far ahead of Redis' clock (written by hand): it was recreated, and the ${dropped} events it held are gone for instances that had not read them`,
    );
  }

  #hold(items: Outgoing[]): void {
    for (const item of items) this.#buffer.push(item);
    this.#retryLater();
    const excess = this.#buffer.length - this.#opts.bufferEvents;
    if (excess <= 0) return;
    this.counts.dropped += this.#buffer.dropOldest(excess);
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
    const { link, keys, streamLength } = this.#opts;
    try {
      while (this.#buffer.length && link.connected && !this.#closed) {
        const batch = this.#buffer.take(256);
        const pipeline = streamPipeline(link.command);
        for (const item of batch)
          pipeline.pipitStreamAdd(
            keys.events,
            streamLength,
            this.#sealed(item),
            FAR_AHEAD_MS,
            keys.eventsWake,
          );
        const results = (await pipeline.exec().catch(() => null)) ?? [];
        const failed = batch.filter((_, i) => !results[i] || results[i][0]);
        this.counts.published += batch.length - failed.length;
        for (const [err, reply] of results) if (!err) this.#reset((reply as [string, number])[1]);
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
}
