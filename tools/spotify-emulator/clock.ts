/** Options of the virtual clock. */
export interface ClockOptions {
  /** Start time in Unix ms (default 2026-09-01T12:00:00Z). */
  start?: number;
  /** Let wall-clock time flow on top of manual advances (for the CLI demo); tests leave it off. */
  realTime?: boolean;
}

/** Default start instant: fixed so seeded timestamps are identical on every run. */
export const DEFAULT_CLOCK_START = Date.UTC(2026, 8, 1, 12, 0, 0);

/**
 * The emulator's only source of time: token expiry, playback progress, history and Retry-After
 * windows all read it, so tests move time explicitly instead of sleeping.
 */
export class VirtualClock {
  #base: number;
  #offset = 0;
  #realStart: number | null;
  #listeners = new Set<(now: number) => void>();

  /**
   * @example
   * const clock = new VirtualClock({ start: Date.UTC(2026, 0, 1) });
   * clock.advance(5_000);
   */
  constructor(options: ClockOptions = {}) {
    this.#base = options.start ?? DEFAULT_CLOCK_START;
    this.#realStart = options.realTime ? performance.now() : null;
  }

  /** Current virtual time in Unix ms. */
  now(): number {
    const real = this.#realStart === null ? 0 : Math.floor(performance.now() - this.#realStart);
    return this.#base + this.#offset + real;
  }

  /** Move time forward and let listeners (the player) catch up. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance() needs a non-negative ms');
    this.#offset += ms;
    const now = this.now();
    for (const listener of this.#listeners) listener(now);
    return now;
  }

  /** Jump to an absolute instant; going backwards is refused because history must stay ordered. */
  set(time: number): number {
    const delta = time - this.now();
    return this.advance(Math.max(0, delta));
  }

  /** Called after every advance. */
  onAdvance(listener: (now: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/**
 * ISO-8601 UTC without milliseconds, the format Spotify uses for `added_at`/`played_at`.
 * @example
 * isoSeconds(0); // '1970-01-01T00:00:00Z'
 */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
