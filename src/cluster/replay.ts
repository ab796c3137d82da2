/** Why a correctly signed message was still refused. */
export type ReplayFault = 'stale' | 'replayed';

// Enough for minutes of events at thousands a second; past it the oldest are forgotten early, and
// anything dated before them is refused as stale (never accepted twice).
const MAX_REMEMBERED = 500_000;

/**
 * Refuses signed messages that are old or already seen: someone who can read and write Redis can
 * copy a genuine message and push it again. A message is accepted when its signed timestamp is at
 * most `pastMs` older and `futureMs` newer than the receiver's clock, and its nonce has not been
 * seen. Nonces are remembered for `pastMs + futureMs` after they arrive: a copy is only fresh until
 * `ts + pastMs`, and `ts` was at most `futureMs` ahead on arrival, so every copy that could still
 * pass the time check is recognised.
 *
 * @example
 * const guard = new ReplayGuard(30_000);
 * guard.check(msg.ts, msg.nonce, Date.now()); // undefined (accepted), 'stale' or 'replayed'
 */
export class ReplayGuard {
  readonly #pastMs: number;
  readonly #futureMs: number;
  readonly #seen = new Map<string, { until: number; ts: number }>();
  // Messages dated at or before this were forgotten early (a full memory): refused as stale.
  #floor = -Infinity;

  constructor(pastMs: number, futureMs = pastMs) {
    this.#pastMs = pastMs;
    this.#futureMs = futureMs;
  }

  /** Undefined when the message is fresh and new (its nonce is then remembered), else why not. */
  check(ts: number, nonce: string, now: number): ReplayFault | undefined {
    if (ts < now - this.#pastMs || ts > now + this.#futureMs || ts <= this.#floor) return 'stale';
    this.#forget(now);
    if (this.#seen.has(nonce)) return 'replayed';
    this.#seen.set(nonce, { until: now + this.#pastMs + this.#futureMs, ts });
    return undefined;
  }

  get size(): number {
    return this.#seen.size;
  }

  // A Map iterates in insertion order, which is the order of the expiry times: stop at the first
  // one still to keep.
  #forget(now: number): void {
    for (const [nonce, { until, ts }] of this.#seen) {
      if (until >= now && this.#seen.size < MAX_REMEMBERED) break;
      if (until >= now) this.#floor = Math.max(this.#floor, ts);
      this.#seen.delete(nonce);
    }
  }
}
