import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../core/logger.ts';
import { isTimeout } from './checks.ts';
import type { ClusterClock } from './clock.ts';
import type { RedisLink } from './link.ts';
import { FAR_AHEAD_MS, idAfter, idTime, nextId, streamCommands } from './stream.ts';
import type { ClusterKeys } from './wire.ts';

/** What {@link StreamReader} needs. */
export interface StreamReaderOptions {
  link: RedisLink;
  keys: ClusterKeys;
  clock: ClusterClock;
  log: Logger;
  /** Entries read at most at once. */
  count: number;
  /** An entry larger than this (its fields' bytes) is not sent by Redis: only its size is. */
  maxEntryBytes: number;
  /** The stream is read this often even when no wake-up came (entries added by hand). */
  pollMs: number;
  /** When this process started, on this machine's clock. */
  startedAtLocal: number;
  /** Each entry in order: its `m` field's text, its size when too large, or null without one. */
  onEntry(id: string, m: string | number | null): void;
  /** `lost` entries after `last` were trimmed away before this reader got them. */
  onTrimmed(last: string, lost: number): void;
  /** A read reached the end of the stream. */
  onCaughtUp(): void;
}

const RETRY_MS = 200;

/**
 * Reads the event stream for {@link RedisBus}. The position starts at this process' start time on
 * Redis' clock (`TIME`, never this machine's: a slow clock would replay the past). Entries are read
 * through a script that sends no entry larger than `maxEntryBytes`; a reader waits for the wake-up
 * that every published event sends (a channel on the subscriber connection) or `pollMs`, whichever
 * comes first.
 *
 * A stream id far ahead of Redis' clock (`XADD … 9999999999999-0` by hand) is warned about; events
 * after it are still read (freshness is judged by their signed time), and once the stream has been
 * recreated (the next publication does it, or someone deletes it) the reader goes back to the last
 * sane id instead of waiting for ids that will not come for centuries.
 *
 * @example
 * const reader = new StreamReader({ link, keys, clock, log, count: 512, maxEntryBytes, pollMs: 1000, startedAtLocal: Date.now(), onEntry, onTrimmed, onCaughtUp });
 * reader.start();
 */
export class StreamReader {
  readonly #opts: StreamReaderOptions;
  #from: string | undefined;
  #last: string | undefined;
  #sane: string | undefined;
  #startedAt: number | undefined;
  #woken = false;
  #wake: (() => void) | undefined;
  #closed = false;
  #warnedAhead = false;
  // How many entries the stream had ever been given when this reader got its last one (Redis
  // 7's entries-added); unknown until a read reaches the end of the stream.
  #added: number | undefined;

  constructor(opts: StreamReaderOptions) {
    this.#opts = opts;
  }

  /** When this process started, on Redis' clock (once first connected). */
  get startedAt(): number | undefined {
    return this.#startedAt;
  }

  start(): void {
    const { link, keys } = this.#opts;
    const client = link.inbox;
    client.on('message', (channel: string) => {
      if (channel === keys.eventsWake) this.#poke();
    });
    const subscribe = () =>
      void client.subscribe(keys.eventsWake).catch(() => {
        if (!link.closed) void link.ready(client).then(subscribe);
      });
    subscribe();
    link.onChange((up) => {
      if (up) this.#poke();
    });
    void this.#loop();
  }

  close(): void {
    this.#closed = true;
    this.#poke();
  }

  #poke(): void {
    this.#woken = true;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async #loop(): Promise<void> {
    const { link } = this.#opts;
    while (!this.#closed) {
      await link.ready(link.events);
      if (this.#closed) return;
      try {
        if (this.#from === undefined) await this.#begin();
        this.#woken = false;
        if (!(await this.#read())) await this.#idle();
      } catch (err) {
        // A read that never came back: a new connection. Else the connection dropped (or
        // closed): wait for it and read on from the last id.
        if (isTimeout(err)) link.reset(link.events);
        if (!this.#closed) await delay(RETRY_MS);
      }
    }
  }

  async #begin(): Promise<void> {
    const { clock, link, startedAtLocal } = this.#opts;
    await clock.sync(link.events);
    this.#startedAt = startedAtLocal + clock.offsetMs;
    this.#from = `${this.#startedAt}-0`;
  }

  // One read; true when there may be more to read at once.
  async #read(): Promise<boolean> {
    const { link, keys, clock, count, maxEntryBytes } = this.#opts;
    const before = this.#last ?? `${this.#startedAt}-0`;
    const [entries, top, added, length, first] = await streamCommands(link.events).pipitStreamRead(
      keys.events,
      this.#from!,
      count,
      maxEntryBytes,
    );
    if (this.#last && idTime(this.#last) > clock.now() + FAR_AHEAD_MS) {
      if (top === null || idAfter(this.#last, top)) return this.#recreated();
    } else this.#count(before, entries.length, { top, added, length, first });
    for (const [id, m] of entries) {
      this.#last = id;
      this.#from = nextId(id);
      if (idTime(id) > clock.now() + FAR_AHEAD_MS) this.#ahead(id);
      else this.#sane = id;
      this.#opts.onEntry(id, m);
    }
    if (entries.length >= count) return true;
    this.#opts.onCaughtUp();
    return false;
  }

  // Entries are trimmed oldest first: when all that remain come after `before`, the ones added
  // since `before` that are not there were trimmed unread. The count carries over to the next read.
  #count(
    before: string,
    read: number,
    stream: { top: string | null; added: number | null; length: number; first: string | null },
  ): void {
    const { top, added, length, first } = stream;
    const known = this.#added;
    // No stream yet: nothing was ever added. (Before Redis 7 there is no count: not checked.)
    if (added === null) return void (this.#added = top === null ? 0 : undefined);
    if (read < this.#opts.count) this.#added = added;
    if (known === undefined || added < known) return;
    const lost = first === null || idAfter(first, before) ? added - known - length : 0;
    if (lost > 0) this.#opts.onTrimmed(before, lost);
    if (read >= this.#opts.count) this.#added = known + Math.max(0, lost) + read;
  }

  #ahead(id: string): void {
    if (this.#warnedAhead) return;
    this.#warnedAhead = true;
    this.#opts.log.warn(
      { key: this.#opts.keys.events, id },
      `the event stream ${this.#opts.keys.events} holds the id ${id}, far ahead of Redis' clock: someone wrote it by hand, and every event added after it gets an id as far ahead. Events are still read; the next event published recreates the stream`,
    );
  }

  // The stream was deleted or recreated under an id far ahead: read on from the last sane one.
  #recreated(): boolean {
    this.#last = this.#sane;
    this.#from = this.#sane ? nextId(this.#sane) : `${this.#startedAt}-0`;
    this.#warnedAhead = false;
    this.#opts.log.info(
      { key: this.#opts.keys.events, from: this.#from },
      `the event stream ${this.#opts.keys.events} was recreated: reading it again from ${this.#from}`,
    );
    return true;
  }

  async #idle(): Promise<void> {
    if (this.#woken || this.#closed) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve();
      }, this.#opts.pollMs);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
