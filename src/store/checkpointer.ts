import type { DatabaseSync } from 'node:sqlite';
import { once } from 'node:events';
import { extname } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Bytes the run history writes between two checkpoints (SQLite's own default is ~4 MB of WAL). */
const CHECKPOINT_BYTES = 4 << 20;
/**
 * While the thread checkpoints, the service's connection still does it itself past this many WAL
 * pages (64 MB): under load that never pauses, a passive checkpoint never catches up with the
 * writes, and the WAL would grow without end.
 */
const FALLBACK_PAGES = 16_384;
/** How long closing waits for the thread to close its connection and end. */
const CLOSE_TIMEOUT_MS = 10_000;
/** SQLite's default `wal_autocheckpoint`, restored when the thread stops. */
const DEFAULT_PAGES = 1000;
/**
 * How long the thread stays after its last checkpoint. A thread is a whole Node.js environment
 * (~15–20 MB resident); a service that went quiet after a load gets most of that back when it
 * ends (9 MB measured with `npm run bench:peers`), and the next load starts one again (~30–60 ms
 * of CPU, on that thread).
 */
export const CHECKPOINT_THREAD_IDLE_MS = 30_000;

/**
 * Moves the busy writer's WAL checkpoints off the event loop. SQLite checkpoints in the commit that
 * passes `wal_autocheckpoint` pages: it copies ~4 MB into the database file and fsyncs it, and the
 * service waits. With the run history writing every request, that was most of what recording
 * cost under load (a stall every two seconds, up to tens of ms). Writers report what they wrote;
 * past {@link CHECKPOINT_BYTES} a thread with its own connection checkpoints (PASSIVE: writers go on
 * meanwhile). The thread starts on the first checkpoint, so a quiet service never pays for it, and
 * ends {@link CHECKPOINT_THREAD_IDLE_MS} after its last one.
 *
 * @example
 * const checkpointer = new WalCheckpointer(db, '/var/lib/pipit/pipit.db', (err) => log.warn({ err }));
 * checkpointer.wrote(28_000);
 * await checkpointer.close(); // undefined when the thread never started
 */
export class WalCheckpointer {
  readonly #db: DatabaseSync;
  readonly #path: string;
  readonly #onError: (err: Error) => void;
  readonly #idleMs: number;
  #worker: Worker | undefined;
  /** A thread ended for being idle, until it has exited. */
  #retiring: Promise<void> | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #started = false;
  #written = 0;
  #busy = false;
  #closed = false;

  constructor(
    db: DatabaseSync,
    path: string,
    onError: (err: Error) => void = () => {},
    opts: { idleMs?: number } = {},
  ) {
    this.#db = db;
    this.#path = path;
    this.#onError = onError;
    this.#idleMs = opts.idleMs ?? CHECKPOINT_THREAD_IDLE_MS;
  }

  /** True while a thread runs (it starts with the first checkpoint, ends when idle). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /**
   * True while the thread checkpoints. Writers that can wait (the run history) hold their writes
   * meanwhile: a checkpoint that ends with every frame copied lets the next write start the WAL
   * over, where one racing a stream of writes never catches up and the WAL only grows.
   */
  get busy(): boolean {
    return this.#busy;
  }

  /** Counts bytes written to the WAL; past the threshold, asks the thread for a checkpoint. */
  wrote(bytes: number): void {
    this.#written += bytes;
    if (this.#written < CHECKPOINT_BYTES || this.#busy || this.#closed) return;
    const worker = (this.#worker ??= this.#start());
    if (!worker) return;
    this.#written = 0;
    this.#busy = true;
    worker.postMessage('checkpoint');
  }

  /**
   * Stops the thread (it closes its connection first); the service's connection checkpoints by
   * itself again. Undefined, at once, when no thread ever started.
   */
  close(): Promise<void> | undefined {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    const worker = this.#worker;
    this.#worker = undefined;
    if (!this.#started) return undefined;
    this.#restore();
    const retiring = this.#retiring;
    if (!worker) return retiring;
    return Promise.all([this.#stop(worker), retiring]).then(() => undefined);
  }

  // No checkpoint for a while: the thread ends (and its memory goes back to the system); the
  // service's connection keeps its high autocheckpoint, and the next checkpoint starts a thread.
  #retireIfIdle(worker: Worker): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      if (this.#worker !== worker || this.#busy || this.#closed) return;
      this.#worker = undefined;
      const retiring = this.#stop(worker).finally(() => {
        if (this.#retiring === retiring) this.#retiring = undefined;
      });
      this.#retiring = retiring;
    }, this.#idleMs);
    this.#idleTimer.unref();
  }

  async #stop(worker: Worker): Promise<void> {
    const exited = once(worker, 'exit');
    worker.postMessage('close');
    // A checkpoint in progress finishes first; a thread that does not end is stopped.
    const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  #start(): Worker | undefined {
    const file = new URL(`./checkpoint-worker${extname(import.meta.url)}`, import.meta.url);
    let worker: Worker;
    try {
      worker = new Worker(file, { workerData: { path: this.#path } });
    } catch (err) {
      this.#closed = true; // SQLite's own checkpoints go on as before
      this.#onError(err as Error);
      return undefined;
    }
    worker.unref();
    this.#started = true;
    worker.on('message', (result: { ok: boolean; error?: string }) => {
      this.#busy = false;
      if (!result.ok) this.#onError(new Error(`WAL checkpoint failed: ${result.error}`));
      this.#retireIfIdle(worker);
    });
    worker.on('error', (err: Error) => {
      this.#onError(err);
      if (this.#worker !== worker) return; // a thread ending for being idle: the next one is new
      this.#busy = false;
      this.#fallBack();
    });
    worker.on('exit', () => {
      // A thread ended for being idle (or by close()) is not a failure.
      if (this.#worker !== worker) return;
      this.#busy = false;
      if (!this.#closed) this.#fallBack();
    });
    this.#db.exec(`PRAGMA wal_autocheckpoint = ${FALLBACK_PAGES}`);
    return worker;
  }

  // The thread is gone: SQLite checkpoints in the writer's commits again, as before.
  #fallBack(): void {
    this.#closed = true;
    this.#worker = undefined;
    this.#restore();
  }

  #restore(): void {
    if (this.#db.isOpen) this.#db.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_PAGES}`);
  }
}
