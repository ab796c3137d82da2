import type { Logger } from '../../core/logger.ts';
import type { FinishedRun } from '../../core/runs.ts';
import type { Runs } from '../../store/runs.ts';
import type { RunsConfig } from './config.ts';

/** How long a finished run waits in memory before it is written (with every run finished since). */
export const FLUSH_MS = 100;
/**
 * Runs written per batch (one row): a busy service writes a batch as soon as it is full, on the
 * next turn of the event loop, rather than holding thousands of runs for the timer; a batch of
 * 256 keeps a write under a millisecond, so requests arriving meanwhile wait for one batch only.
 */
const SLICE = 256;
/** While the database is checkpointed, batches wait in steps of this long... */
const CHECKPOINT_WAIT_MS = 5;
/** ...unless this many runs wait: then they are written anyway, so memory stays bounded. */
const MAX_HELD = 50_000;
/** How often old runs are pruned. */
const PRUNE_MS = 60_000;
/**
 * Batches (of up to 256 runs) one prune step deletes or writes again, in one transaction: a couple
 * of milliseconds, then the event loop serves requests before the next step.
 */
const PRUNE_STEP = 64;

/**
 * The run history's writer: finished runs are queued on the hot path (no I/O there) and written
 * in batches: every {@link FLUSH_MS} ms, or as soon as a batch is full; old runs are pruned in the
 * background. The `runs` plugin's own reads are not recorded (the Runs page polls them).
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
    if (this.#queue.length >= SLICE) {
      if (!this.#immediate) this.#immediate = setImmediate(() => this.flush(false)).unref();
    } else this.#timer ??= setTimeout(() => this.flush(false), FLUSH_MS).unref();
  };
  readonly #runs: Runs;
  readonly #config: RunsConfig;
  readonly #log: Logger;
  #queue: FinishedRun[] = [];
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;
  readonly #pruneTimer: NodeJS.Timeout;
  #pruning = false;
  #closed = false;

  constructor(runs: Runs, config: RunsConfig, log: Logger) {
    this.#runs = runs;
    this.#config = config;
    this.#log = log;
    void this.prune();
    this.#pruneTimer = setInterval(() => void this.prune(), PRUNE_MS).unref();
  }

  /**
   * Writes queued runs: all of them when `all` (before a read that must see them, and at shutdown),
   * else one slice, scheduling the next slice for the next turn of the event loop.
   */
  flush(all = true): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#immediate) clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
    if (!this.#queue.length) return;
    if (!all && this.#runs.busy && this.#queue.length < MAX_HELD) {
      // The database is being checkpointed: this batch waits for it (see WalCheckpointer).
      this.#timer = setTimeout(() => this.flush(false), CHECKPOINT_WAIT_MS).unref();
      return;
    }
    const batch = all ? this.#queue : this.#queue.slice(0, SLICE);
    this.#queue = all ? [] : this.#queue.slice(batch.length);
    try {
      this.#runs.insert(batch, this.#config.max_output_bytes);
    } catch (err) {
      // A history write must never fail the runs it describes; losing the batch is logged.
      this.#log.warn({ err, runs: batch.length }, 'could not record runs in the history');
    }
    if (this.#queue.length >= SLICE)
      this.#immediate = setImmediate(() => this.flush(false)).unref();
    else if (this.#queue.length)
      this.#timer = setTimeout(() => this.flush(false), FLUSH_MS).unref();
  }

  /**
   * Deletes runs past the configured age and count, {@link PRUNE_STEP} batches at a time with
   * requests served between the steps; resolves with how many went (0 while a prune is running).
   */
  async prune(): Promise<number> {
    if (this.#pruning) return 0;
    this.#pruning = true;
    let deleted = 0;
    try {
      for (;;) {
        const step = this.#runs.prune({
          maxCount: this.#config.max_runs,
          maxAgeMs: this.#config.max_age_days * 86_400_000,
          maxBatches: PRUNE_STEP,
        });
        deleted += step;
        if (!step) break;
        await new Promise((resolve) => setImmediate(resolve));
        if (this.#closed) break;
      }
      if (deleted) this.#log.debug({ deleted }, 'pruned the run history');
    } catch (err) {
      this.#log.warn({ err }, 'could not prune the run history');
    } finally {
      this.#pruning = false;
    }
    return deleted;
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#pruneTimer);
    this.flush();
  }
}

const OWN_ACTIONS = 'runs.';
