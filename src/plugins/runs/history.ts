import type { Logger } from '../../core/logger.ts';
import type { FinishedRun } from '../../core/runs.ts';
import type { Runs } from '../../store/runs.ts';
import type { RunsConfig } from './config.ts';

/** How long a finished run waits in memory before it is written (with every run finished since). */
export const FLUSH_MS = 100;
/** A batch this large is written at once instead of waiting for the timer. */
const MAX_BATCH = 2000;
/**
 * Runs written per transaction: a large batch is written in slices, one per turn of the event loop,
 * so that requests arriving meanwhile wait for one slice (~1 ms), not for the whole batch.
 */
const SLICE = 256;
/** How often old runs are pruned. */
const PRUNE_MS = 60_000;

/**
 * The run history's writer: finished runs are queued on the hot path (no I/O there) and written
 * in one transaction every {@link FLUSH_MS} ms; old runs are pruned in the background. The `runs`
 * plugin's own reads are not recorded (the Runs page polls them).
 *
 * @example
 * const history = new RunHistory(store.runs, config, log);
 * services.runs.add(history.observer);
 * await history.close(); // writes what is queued
 */
export class RunHistory {
  readonly observer = (run: FinishedRun): void => {
    if (run.kind === 'action' && run.name.startsWith(OWN_ACTIONS)) return;
    this.#queue.push(run);
    if (this.#queue.length >= MAX_BATCH) this.flush(false);
    else this.#timer ??= setTimeout(() => this.flush(false), FLUSH_MS).unref();
  };
  readonly #runs: Runs;
  readonly #config: RunsConfig;
  readonly #log: Logger;
  #queue: FinishedRun[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #pruneTimer: NodeJS.Timeout;

  constructor(runs: Runs, config: RunsConfig, log: Logger) {
    this.#runs = runs;
    this.#config = config;
    this.#log = log;
    this.prune();
    this.#pruneTimer = setInterval(() => this.prune(), PRUNE_MS).unref();
  }

  /**
   * Writes queued runs: all of them when `all` (before a read that must see them, and at shutdown),
   * else one slice, scheduling the next slice for the next turn of the event loop.
   */
  flush(all = true): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#queue.length) return;
    const batch = all ? this.#queue : this.#queue.slice(0, SLICE);
    this.#queue = all ? [] : this.#queue.slice(batch.length);
    try {
      this.#runs.insert(batch, this.#config.max_output_bytes);
    } catch (err) {
      // A history write must never fail the runs it describes; losing the batch is logged.
      this.#log.warn({ err, runs: batch.length }, 'could not record runs in the history');
    }
    if (this.#queue.length) this.#timer = setTimeout(() => this.flush(false), 0).unref();
  }

  /** Deletes runs past the configured age and count; returns how many went. */
  prune(): number {
    try {
      const deleted = this.#runs.prune({
        maxCount: this.#config.max_runs,
        maxAgeMs: this.#config.max_age_days * 86_400_000,
      });
      if (deleted) this.#log.debug({ deleted }, 'pruned the run history');
      return deleted;
    } catch (err) {
      this.#log.warn({ err }, 'could not prune the run history');
      return 0;
    }
  }

  close(): void {
    clearInterval(this.#pruneTimer);
    this.flush();
  }
}

const OWN_ACTIONS = 'runs.';
