import type { ClaimOptions } from '../core/cluster-port.ts';
import type { Logger } from '../core/logger.ts';
import type { ClusterClock } from './clock.ts';
import type { RedisLink } from './link.ts';
import type { ClusterKeys } from './wire.ts';

// How long a `once` lock waits for Redis to come back before the run is skipped.
const CLAIM_WAIT_MS = 2_000;

/** What {@link OnceLocks} needs. */
export interface OnceLocksOptions {
  link: RedisLink;
  keys: ClusterKeys;
  clock: ClusterClock;
  deviceId: string;
  log: Logger;
  /** How long a lock lives: the catch-up window plus twice the allowed skew. */
  ttlMs: number;
  /** `clock_skew_seconds`: the margin kept between the latest run and the lock's expiry. */
  skewMs: number;
}

/**
 * The locks behind `once: true` hooks and crons: a key set with `SET NX PX ttl`, where the lifetime
 * covers the whole window in which an instance may still read an event (the catch-up window plus
 * the skew), so an instance that was stalled or cut off and reads the event late finds the lock
 * still there. A lock that could only be taken after the first one may have expired (the claim is
 * later than `ttl - skew` after the event, or than `maxAgeMs` after a cron's due time) is not
 * used: the hook or cron is skipped with a warning rather than run twice.
 *
 * @example
 * const locks = new OnceLocks({ link, keys, clock, deviceId: 'kitchen', log, ttlMs: 360_000, skewMs: 30_000 });
 * if (await locks.claim('hook:Door:1f2e', { at: delivery.at })) await run();
 */
export class OnceLocks {
  readonly #opts: OnceLocksOptions;
  #warnedDown = 0;
  #warnedLate = 0;

  constructor(opts: OnceLocksOptions) {
    this.#opts = opts;
  }

  /** True for exactly one claimer of `key` in the cluster, and only while it is not too late. */
  async claim(key: string, opts: ClaimOptions = {}): Promise<boolean> {
    const { link, keys, clock, deviceId, ttlMs, skewMs } = this.#opts;
    const limit = Math.min(opts.maxAgeMs ?? Infinity, ttlMs - skewMs);
    const age = () =>
      opts.at === undefined ? 0 : (opts.local ? clock.local() : clock.now()) - opts.at;
    if (age() > limit) return this.#late(key, age(), limit);
    let set: string | null;
    try {
      // An event read just after a reconnection may come before the command connection is back.
      if (!(await link.whenConnected(CLAIM_WAIT_MS))) throw new Error('Redis is unreachable');
      set = await link.command.set(keys.once(key), deviceId, 'PX', ttlMs, 'NX');
    } catch (err) {
      // Once a minute at most: a `once` cron every second would otherwise fill the log.
      if (Date.now() - this.#warnedDown > 60_000) {
        this.#warnedDown = Date.now();
        this.#opts.log.warn(
          { err, key },
          `skipped "${key}" (once: true): Redis is unreachable, so this instance cannot know whether another one ran it`,
        );
      }
      return false;
    }
    if (set !== 'OK') return false;
    // Taken, but so late that another instance's lock may have come and gone (this instance was
    // stalled, or its claim hung on a dead connection).
    if (age() > limit) return this.#late(key, age(), limit);
    return true;
  }

  #late(key: string, ageMs: number, limitMs: number): false {
    if (Date.now() - this.#warnedLate > 60_000) {
      this.#warnedLate = Date.now();
      this.#opts.log.warn(
        { key, age_ms: Math.round(ageMs), limit_ms: Math.round(limitMs) },
        `skipped "${key}" (once: true): this instance got to it ${(ageMs / 1000).toFixed(1)} s late (more than ${(limitMs / 1000).toFixed(1)} s), when another instance may have run it already and its lock may be gone; further ones are skipped without a word for a minute`,
      );
    }
    return false;
  }
}
