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
/**
 * ...unless this many runs wait: then they are written anyway. It is also the most runs ever held:
 * a producer that outruns the writer within one turn of the event loop (a script calling `run()`
 * in a loop) writes the oldest batch itself at this point, so memory stays bounded.
 */
const MAX_HELD = 50_000;
/**
 * Full batches waiting (a busy service has one a turn; a burst or a checkpoint leaves more) are
 * written in one turn of the event loop for up to this long, so that the writer catches up with a
 * producer that makes several batches a turn instead of falling further behind.
 */
const CATCH_UP_MS = 4;
/** How often old runs are pruned. */
const PRUNE_MS = 60_000;
/**
 * Batches (of up to 256 runs) one prune step deletes or writes again, in one transaction: a couple
 * of milliseconds, then the event loop serves requests before the next step.
 */
const PRUNE_STEP = 64;

/** Limits a test may lower (the defaults are the constants above). */
export interface HistoryLimits {
  maxHeld?: number;
  catchUpMs?: number;
}

/**
 * The run history's writer: finished runs are queued on the hot path (no I/O there) and written
 * in batches: every {@link FLUSH_MS} ms, or as soon as a batch is full; old runs are pruned in the
 * background. The `runs` plugin's own reads are not recorded (the Runs page polls them).
 *
 * Runs wait as full batches plus the one filling, so writing a batch never copies the rest of a
 * backlog (a queue sliced at every write made draining 200,000 runs after a burst quadratic: the
 * service served a third of its usual rate for seconds).
 *
 * @example
 * const history = new RunHistory(store.runs, config, log);
 * services.runs.add(history.observer);
 * await history.close(); // writes what is queued
 */
export class RunHistory {
  readonly observer = (run: FinishedRun): void => {
    if (run.kind === 'action' && run.name.startsWith(OWN_ACTIONS)) return;
    const filling = this.#filling;
    filling.push(run);
    if (filling.length < SLICE) {
      this.#timer ??= setTimeout(() => this.flush(false), FLUSH_MS).unref();
      return;
    }
    this.#full.push(filling);
    this.#filling = [];
    if (this.#full.length * SLICE >= this.#maxHeld) this.#writeOldest();
    else this.#immediate ??= setImmediate(() => this.flush(false)).unref();
  };
  readonly #runs: Runs;
  readonly #config: RunsConfig;
  readonly #log: Logger;
  readonly #maxHeld: number;
  readonly #catchUpMs: number;
  /** Full batches waiting, oldest first. */
  #full: FinishedRun[][] = [];
  /** The batch filling up, after the full ones. */
  #filling: FinishedRun[] = [];
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;
  readonly #pruneTimer: NodeJS.Timeout;
  #pruning = false;
  #closed = false;

  constructor(runs: Runs, config: RunsConfig, log: Logger, limits: HistoryLimits = {}) {
    this.#runs = runs;
    this.#config = config;
    this.#log = log;
    this.#maxHeld = limits.maxHeld ?? MAX_HELD;
    this.#catchUpMs = limits.catchUpMs ?? CATCH_UP_MS;
    void this.prune();
    this.#pruneTimer = setInterval(() => void this.prune(), PRUNE_MS).unref();
  }

  /** Runs finished and not yet written. */
  get held(): number {
    return this.#full.length * SLICE + this.#filling.length;
  }

  /**
   * Writes queued runs: all of them when `all` (before a read that must see them, and at shutdown),
   * else the oldest batch (several while a backlog lasts, see {@link CATCH_UP_MS}), scheduling the
   * next for the next turn of the event loop.
   */
  flush(all = true): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#immediate) clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
    if (all) {
      while (this.#full.length || this.#filling.length) this.#writeOldest();
      return;
    }
    if (!this.#full.length && !this.#filling.length) return;
    if (this.#runs.busy && this.held < this.#maxHeld) {
      // The database is being checkpointed: this batch waits for it (see WalCheckpointer).
      this.#timer = setTimeout(() => this.flush(false), CHECKPOINT_WAIT_MS).unref();
      return;
    }
    const until = performance.now() + this.#catchUpMs;
    do this.#writeOldest();
    while (this.#full.length && performance.now() < until);
    if (this.#full.length) this.#immediate = setImmediate(() => this.flush(false)).unref();
    else if (this.#filling.length)
      this.#timer = setTimeout(() => this.flush(false), FLUSH_MS).unref();
  }

  /** Writes the oldest full batch, or the filling one when none is full. */
  #writeOldest(): void {
    let batch = this.#full.shift();
    if (!batch) {
      batch = this.#filling;
      this.#filling = [];
    }
    try {
      this.#runs.insert(batch, this.#config.max_output_bytes);
    } catch (err) {
      // A history write must never fail the runs it describes; losing the batch is logged.
      this.#log.warn(
        { err, runs: batch.length },
        `could not record ${batch.length} runs in the history, which lost them (see err: a full disk or a database file that is not writable); the service goes on`,
      );
    }
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
