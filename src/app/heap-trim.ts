import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../core/logger.ts';

/** How often `pipit start` looks at the process's CPU time and resident memory. */
export const TRIM_CHECK_MS = 1000;
/** How long the service must have been quiet before a trim. */
export const QUIET_WINDOW_MS = 10_000;
/** Below this share of a core (all threads), over the window and over its last check, it is quiet. */
export const QUIET_CPU_SHARE = 0.02;
/** How much the resident memory must have grown since the start (or the last trim). */
export const TRIM_GROWTH_BYTES = 16 << 20;
/** The least time between two trims, so that bursts a few seconds apart do not trim each time. */
export const TRIM_MIN_INTERVAL_MS = 60_000;

/** One look at the process: when, its CPU time so far (ms) and its resident memory (bytes). */
export interface ProcessReading {
  atMs: number;
  cpuMs: number;
  rssBytes: number;
}

const cpuShare = (from: ProcessReading, to: ProcessReading) =>
  (to.cpuMs - from.cpuMs) / (to.atMs - from.atMs);

/**
 * When to give memory back: the service has grown by {@link TRIM_GROWTH_BYTES} or more since its
 * baseline (its first reading, after the start, or the reading after the last trim); it has been
 * quiet for {@link QUIET_WINDOW_MS}, and still was since the reading before (so that a burst that
 * has just begun is not paused); and no trim ran in the last {@link TRIM_MIN_INTERVAL_MS}.
 *
 * @example
 * const policy = new HeapTrimPolicy();
 * if (policy.shouldTrim(reading)) { trim(); policy.trimmed(readingAfter); }
 */
export class HeapTrimPolicy {
  readonly #growth: number;
  readonly #quiet: number;
  readonly #window: number;
  readonly #minInterval: number;
  /** Readings of the last window, oldest first. */
  #readings: ProcessReading[] = [];
  #baseline: number | undefined;
  #lastTrimAt = Number.NEGATIVE_INFINITY;

  constructor(
    opts: {
      growthBytes?: number;
      quietCpuShare?: number;
      windowMs?: number;
      minIntervalMs?: number;
    } = {},
  ) {
    this.#growth = opts.growthBytes ?? TRIM_GROWTH_BYTES;
    this.#quiet = opts.quietCpuShare ?? QUIET_CPU_SHARE;
    this.#window = opts.windowMs ?? QUIET_WINDOW_MS;
    this.#minInterval = opts.minIntervalMs ?? TRIM_MIN_INTERVAL_MS;
  }

  /** True when the heap should be trimmed now (then call {@link trimmed}). */
  shouldTrim(reading: ProcessReading): boolean {
    this.#baseline ??= reading.rssBytes;
    const readings = this.#readings;
    const previous = readings.at(-1);
    if (previous && reading.atMs <= previous.atMs) return false;
    readings.push(reading);
    while (readings.length > 2 && reading.atMs - readings[1]!.atMs >= this.#window)
      readings.shift();
    const first = readings[0]!;
    if (!previous || reading.atMs - first.atMs < this.#window) return false;
    return (
      cpuShare(first, reading) < this.#quiet &&
      cpuShare(previous, reading) < this.#quiet &&
      reading.rssBytes >= this.#baseline + this.#growth &&
      reading.atMs - this.#lastTrimAt >= this.#minInterval
    );
  }

  /** Records a trim: what it left is the new baseline, and a new quiet window starts. */
  trimmed(after: ProcessReading): void {
    this.#baseline = after.rssBytes;
    this.#lastTrimAt = after.atMs;
    this.#readings = [after];
  }
}

/**
 * A function that runs V8's memory-reducing full collection (the one V8 runs under memory
 * pressure: it compacts, shrinks the young generation to what the allocation rate needs, and
 * returns the freed pages to the system). V8 exposes it only as `gc()`, under --expose-gc: the flag
 * is set for the moment it takes to make one new context and take its `gc`, then cleared, so that
 * no other context (the service's own included) gets a `gc` global.
 *
 * @example
 * const reduce = memoryReducingGc();
 * reduce(); // ~50–250 ms on an idle service
 */
export function memoryReducingGc(): () => void {
  setFlagsFromString('--expose-gc');
  try {
    const gc = runInNewContext('gc') as (options: object) => void;
    return () => gc({ type: 'major', flavor: 'last-resort' });
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

const read = (): ProcessReading => {
  const { user, system } = process.cpuUsage();
  return {
    atMs: performance.now(),
    cpuMs: (user + system) / 1000,
    rssBytes: process.memoryUsage.rss(),
  };
};

/**
 * Gives memory back once the service goes quiet after a load. Under load V8 grows its young
 * generation (to 2 × 64 MB on a machine with 16 GB or more) and its old generation's pages, and
 * gives them back only from its memory reducer, which a mark-compact that freed memory starts.
 * Pipit's requests leave little garbage in the old generation, so no such mark-compact comes,
 * and a service that served a burst kept ~60–90 MB more than it needed for as long as it ran
 * (measured: `npm run bench:peers`, 100 MB idle, 187 MB after 15 s of web hooks, still 187 MB
 * 60 s later; Node-RED, whose old generation fills with garbage, went back on its own). Every
 * {@link TRIM_CHECK_MS} this looks at the process's CPU time and resident memory; once the service
 * has been quiet for {@link QUIET_WINDOW_MS} and the memory has grown by {@link TRIM_GROWTH_BYTES},
 * it runs V8's memory-reducing collection once (187 → 127 MB, ~120 ms on a quiet service). A service under load is never
 * paused by it. Returns the function that stops it.
 *
 * @example
 * const stop = startHeapTrim(log);
 */
export function startHeapTrim(
  log: Logger,
  opts: { checkMs?: number; policy?: HeapTrimPolicy; trim?: () => void } = {},
): () => void {
  const policy = opts.policy ?? new HeapTrimPolicy();
  let trim = opts.trim;
  policy.shouldTrim(read());
  const timer = setInterval(() => {
    const before = read();
    if (!policy.shouldTrim(before)) return;
    trim ??= memoryReducingGc();
    trim();
    const after = read();
    policy.trimmed(after);
    log.debug(
      {
        rss_before_mb: Math.round(before.rssBytes / 2 ** 20),
        rss_after_mb: Math.round(after.rssBytes / 2 ** 20),
        heap_mb: Math.round(getHeapStatistics().total_heap_size / 2 ** 20),
        ms: Math.round(after.atMs - before.atMs),
      },
      'quiet after a load: gave memory back',
    );
  }, opts.checkMs ?? TRIM_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
