/** Why a correctly signed message was still refused. */
export type ReplayFault = 'stale' | 'replayed';

// Enough for minutes of events at thousands a second; past it the oldest are forgotten early.
const MAX_REMEMBERED = 500_000;

/**
 * Refuses signed messages that are old or already seen: someone who can read and write Redis can
 * copy a genuine message and push it again. A message is accepted when its timestamp is within
 * `windowMs` of the reference time (now for requests; the stream entry's time for events, so that
 * events missed during an outage are still read) and its nonce has not been seen. Nonces are
 * remembered for twice the window after they arrive, so that a copy pushed while the original was
 * still fresh is recognised however late both are read.
 *
 * @example
 * const guard = new ReplayGuard(30_000);
 * guard.check(msg.ts, msg.nonce, Date.now()); // undefined (accepted), 'stale' or 'replayed'
 */
export class ReplayGuard {
  readonly #windowMs: number;
  readonly #seen = new Map<string, number>();

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  /** Undefined when the message is fresh and new (its nonce is then remembered), else why not. */
  check(ts: number, nonce: string, reference: number): ReplayFault | undefined {
    if (Math.abs(reference - ts) > this.#windowMs) return 'stale';
    const now = Date.now();
    this.#forget(now);
    if (this.#seen.has(nonce)) return 'replayed';
    this.#seen.set(nonce, now + 2 * this.#windowMs);
    return undefined;
  }

  get size(): number {
    return this.#seen.size;
  }

  // A Map iterates in insertion order, which is the order of the expiry times: stop at the first
  // one still to keep.
  #forget(now: number): void {
    for (const [nonce, until] of this.#seen) {
      if (until > now && this.#seen.size < MAX_REMEMBERED) break;
      this.#seen.delete(nonce);
    }
  }
}
