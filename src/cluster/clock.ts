import type { Redis } from 'ioredis';
import type { Logger } from '../core/logger.ts';

/** Past this difference between this machine's clock and Redis' `TIME`, a warning is logged. */
export const SKEW_WARN_MS = 3_000;

// A round trip to Redis longer than this gives a loose reading of its clock.
const LOOSE_MS = 100;

/** What {@link ClusterClock} needs. */
export interface ClusterClockOptions {
  log: Logger;
  /** This machine's clock (epoch ms); tests give one that is off. */
  now?: () => number;
}

/**
 * The cluster's time: Redis' `TIME`, estimated from this machine's clock plus the offset measured
 * when connecting and at every heartbeat. Every instance stamps and judges events on this one clock,
 * so an instance whose own clock is off neither replays the past nor refuses the others' events;
 * the difference is logged past {@link SKEW_WARN_MS}, and again when it is fixed.
 *
 * @example
 * const clock = new ClusterClock({ log });
 * await clock.sync(link.command);
 * clock.now(); // epoch ms on Redis' clock
 */
export class ClusterClock {
  readonly #local: () => number;
  readonly #log: Logger;
  #offset = 0;
  #uncertainty = 0;
  #synced = false;
  #warned = false;

  constructor(opts: ClusterClockOptions) {
    this.#local = opts.now ?? Date.now;
    this.#log = opts.log;
  }

  /** Epoch ms on Redis' clock (this machine's own until the first {@link sync}). */
  now(): number {
    return this.#local() + this.#offset;
  }

  /** This machine's clock, as the offset is measured against. */
  local(): number {
    return this.#local();
  }

  /** Redis' clock minus this machine's, in ms. */
  get offsetMs(): number {
    return this.#offset;
  }

  /** How far {@link offsetMs} may be off: half the round trip of the reading it came from. */
  get uncertaintyMs(): number {
    return this.#uncertainty;
  }

  get synced(): boolean {
    return this.#synced;
  }

  /**
   * Reads Redis' `TIME` on `client` and updates the offset, allowing half the round trip. A busy
   * event loop makes the round trip look long and the estimate loose: up to three readings are
   * taken while it is over {@link LOOSE_MS}, and the tightest one is kept.
   */
  async sync(client: Redis): Promise<void> {
    let best: { offset: number; rtt: number } | undefined;
    for (let i = 0; i < 3 && (!best || best.rtt > LOOSE_MS); i++) {
      const before = this.#local();
      const [seconds, micros] = (await client.time()) as unknown as [string, string];
      const after = this.#local();
      const redisMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const reading = { offset: Math.round(redisMs - (before + after) / 2), rtt: after - before };
      if (!best || reading.rtt < best.rtt) best = reading;
    }
    this.#offset = best!.offset;
    this.#uncertainty = Math.ceil(best!.rtt / 2);
    this.#synced = true;
    this.#report();
  }

  #report(): void {
    const skew = Math.abs(this.#offset);
    if (skew > SKEW_WARN_MS && !this.#warned) {
      this.#warned = true;
      this.#log.warn(
        { offset_ms: this.#offset },
        `this machine's clock is ${(skew / 1000).toFixed(1)} s ${this.#offset > 0 ? 'behind' : 'ahead of'} Redis' TIME: events are dated and judged on Redis' clock, but cron times and heartbeats use this one; sync the clocks (NTP)`,
      );
    } else if (skew <= SKEW_WARN_MS && this.#warned) {
      this.#warned = false;
      this.#log.info({ offset_ms: this.#offset }, "this machine's clock agrees with Redis' again");
    }
  }
}
