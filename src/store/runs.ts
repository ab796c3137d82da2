import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { runIdAt } from '../core/runs.ts';
import type { FinishedRun } from '../core/runs.ts';
import type { WalCheckpointer } from './checkpointer.ts';
import { BatchWriter } from './run-batch-writer.ts';
import { decodeBatch, toDetail, toStored } from './run-codec.ts';
import { compileFilter, idNumber } from './run-filter.ts';
import type { RunFilter } from './run-filter.ts';
import { RunPruner } from './run-prune.ts';
import type { RawRun, StoredRun, StoredRunDetail } from './run-codec.ts';

export type { StoredRun, StoredRunDetail } from './run-codec.ts';

export type { RunFilter } from './run-filter.ts';

interface BatchRow {
  seq: number;
  last_id: number;
  runs: string;
}

/** Parsed batches kept between calls (the Runs page polls the newest ones). */
const CACHED_BATCHES = 16;
/** Work between two pauses of a sliced list (see `Runs.listSliced`). */
export const SLICE_MS = 8;
/** Batches (of up to 256 runs) one query of a scan reads at most. */
const SEQ_CHUNK = 16;

/**
 * The run history: finished runs written in batches, one row per batch (see `RunHistory`), each
 * row the JSON text of its runs (see `decodeBatch` for its forms). One insert per batch instead
 * of one per run is what keeps recording off the hot path: a row costs SQLite ~2 µs whatever its
 * size, as much again as a whole `/execute` costs in JSON work. Reads parse the few batches they need; every batch notes its
 * lowest and highest run id, how many failed, and `last_id`, an id at least as high as any run it
 * holds and never lower than an earlier batch's, so that a newest-first scan knows when to stop.
 *
 * @example
 * const runs = new Runs(db);
 * runs.insert([finished], 16384);
 * runs.list({ outcome: 'failed', limit: 20 });
 */
export class Runs {
  private readonly db: DatabaseSync;
  private readonly synchronous: number;
  private readonly insertStmt: StatementSync;
  private readonly pruner: RunPruner;
  private readonly tokenStmt: StatementSync;
  private lastId: number;
  private readonly parsed = new Map<number, RawRun[]>();
  private readonly checkpointer: WalCheckpointer | undefined;

  /** `checkpointer` is told what each batch wrote, and checkpoints off the event loop. */
  constructor(db: DatabaseSync, checkpointer?: WalCheckpointer) {
    this.db = db;
    this.checkpointer = checkpointer;
    this.synchronous = (
      db.prepare('PRAGMA synchronous').get() as { synchronous: number }
    ).synchronous;
    this.insertStmt = db.prepare(
      'INSERT INTO run_batches (min_id, max_id, last_id, size, failed, runs) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.pruner = new RunPruner(db, () => this.count());
    this.tokenStmt = db.prepare('SELECT name FROM api_tokens WHERE id = ?');
    this.lastId = (
      db.prepare('SELECT coalesce(max(last_id), 0) AS id FROM run_batches').get() as { id: number }
    ).id;
  }

  /**
   * Writes finished runs as one batch; arguments and outputs longer than `maxOutputBytes` are
   * cut. The commit is not fsynced (see {@link Runs.withoutFsync}).
   */
  insert(runs: readonly FinishedRun[], maxOutputBytes: number): void {
    if (!runs.length) return;
    let min = Infinity;
    let max = 0;
    let failed = 0;
    for (const run of runs) {
      if (run.id < min) min = run.id;
      if (run.id > max) max = run.id;
      if (run.outcome === 'failed') failed++;
    }
    const batch = new BatchWriter(min, maxOutputBytes);
    for (const run of runs) batch.add(run);
    this.lastId = Math.max(this.lastId, max, runIdAt(Date.now()));
    const text = batch.text();
    this.withoutFsync(() => this.insertStmt.run(min, max, this.lastId, runs.length, failed, text));
    this.checkpointer?.wrote(text.length);
  }

  /**
   * Runs a write of the history's own with `synchronous = NORMAL` (in WAL, its commit is not
   * fsynced; the next checkpoint is): a power cut may lose the last runs written, or undo a prune
   * that the next one does again, never corrupt the file. The connection's other writes keep their
   * full durability.
   */
  private withoutFsync<T>(write: () => T): T {
    this.db.exec('PRAGMA synchronous = NORMAL');
    try {
      return write();
    } finally {
      this.db.exec(`PRAGMA synchronous = ${this.synchronous}`);
    }
  }

  /**
   * True while the database is checkpointed: a batch that can wait should (see WalCheckpointer).
   */
  get busy(): boolean {
    return this.checkpointer?.busy ?? false;
  }

  /** Newest first (by start time), in one go: see {@link Runs.listSliced} for the service's reads. */
  list(filter: RunFilter): StoredRun[] {
    const scan = this.scan(filter);
    for (let step = scan.next(); ; step = scan.next()) if (step.done) return step.value;
  }

  /**
   * Newest first, as {@link Runs.list}, in slices of about {@link SLICE_MS} of work with the event
   * loop served between them: a filter that no batch can skip unparsed (a `text` in every batch's
   * JSON but in no run) decodes the whole history, ~0.1-0.3 s at 100,000 runs
   * (`npm run bench:runs-scan`; its longest pause, a scavenge, was 20-30 ms).
   */
  async listSliced(filter: RunFilter): Promise<StoredRun[]> {
    const scan = this.scan(filter);
    for (let step = scan.next(); ; step = scan.next()) {
      if (step.done) return step.value;
      this.slices++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Pauses taken by {@link Runs.listSliced} so far (tests: the scan does yield). */
  slices = 0;

  /**
   * The scan behind both lists: batches newest first, read {@link SEQ_CHUNK} rows a query (so that
   * no SQLite call reads the whole table), yielding when a slice has taken {@link SLICE_MS}.
   * Batches written meanwhile are not seen; batches pruned meanwhile are not read.
   */
  private *scan(filter: RunFilter): Generator<void, StoredRun[], void> {
    const f = compileFilter(filter);
    const range = this.db
      .prepare('SELECT min(seq) AS lo, max(seq) AS hi FROM run_batches')
      .get() as { lo: number | null; hi: number | null };
    const stmt = this.db.prepare(
      `SELECT seq, last_id, runs FROM run_batches WHERE seq <= ? AND seq > ?${f.where.map((w) => ` AND ${w}`).join('')} ORDER BY seq DESC`,
    );
    const found: { raw: RawRun; seq: number }[] = [];
    let cutoff = -Infinity; // the lowest id still in the newest `limit` found
    let sliceStart = performance.now();
    scan: for (let top = range.hi ?? 0; range.lo !== null && top >= range.lo; top -= SEQ_CHUNK) {
      const rows = stmt.all(top, top - SEQ_CHUNK, ...f.params) as unknown as BatchRow[];
      for (const row of rows) {
        // Every run in this batch and the older ones started at or before last_id.
        if (row.last_id < f.sinceId || row.last_id < cutoff) break scan;
        if (f.batchMayMatch(row.runs))
          for (const raw of this.batch(row))
            if (raw.id > cutoff && f.matches(raw)) found.push({ raw, seq: row.seq });
        if (found.length >= filter.limit) {
          found.sort((a, b) => b.raw.id - a.raw.id);
          found.length = filter.limit;
          cutoff = found.at(-1)!.raw.id;
        }
        if (performance.now() - sliceStart >= SLICE_MS) {
          yield;
          sliceStart = performance.now();
        }
      }
      if (performance.now() - sliceStart >= SLICE_MS) {
        yield;
        sliceStart = performance.now();
      }
    }
    found.sort((a, b) => b.raw.id - a.raw.id);
    const tokens = this.tokenNames();
    const out: StoredRun[] = [];
    // Counting a run's steps reads the batches written while it ran: 500 hooks are 500 reads.
    for (const { raw, seq } of found.slice(0, filter.limit)) {
      out.push(toStored(raw, this.stepsOf(raw, seq), tokens));
      if (performance.now() - sliceStart >= SLICE_MS) {
        yield;
        sliceStart = performance.now();
      }
    }
    return out;
  }

  /** One run with its output, or undefined. */
  get(id: string): StoredRunDetail | undefined {
    const found = this.find(id);
    return found && toDetail(found.raw, this.stepsOf(found.raw, found.seq), this.tokenNames());
  }

  /** The steps of a run, in the order they started. */
  children(id: string): StoredRunDetail[] {
    const found = this.find(id);
    if (!found) return [];
    const tokens = this.tokenNames();
    return this.childrenOf(found.raw, found.seq)
      .sort((a, b) => a.raw.id - b.raw.id)
      .map(({ raw, seq }) => toDetail(raw, this.stepsOf(raw, seq), tokens));
  }

  /**
   * Deletes runs older than `maxAgeMs` and all but the newest `maxCount`; returns how many went.
   * Whole batches go where they can; the batch on the boundary is written again without them.
   * `maxBatches` bounds the batches one call deletes or writes again (one transaction): a service
   * under load prunes in such steps, with requests served between them (see `RunHistory`), since
   * a minute's backlog of a busy service is ~1M runs, and deleting them at once held the event
   * loop for ~100 ms. 0 means there was nothing left to prune.
   */
  prune(opts: { maxCount: number; maxAgeMs: number; now?: number; maxBatches?: number }): number {
    const cutoff = runIdAt((opts.now ?? Date.now()) - opts.maxAgeMs);
    this.parsed.clear();
    return this.withoutFsync(() => this.pruner.step(cutoff, opts.maxCount, opts.maxBatches));
  }

  /** How many runs are kept. */
  count(): number {
    return (
      this.db.prepare('SELECT coalesce(sum(size), 0) AS n FROM run_batches').get() as { n: number }
    ).n;
  }

  /** The batch's runs, parsed (the newest few are kept parsed: batches change only when pruned). */
  private batch(row: { seq: number; runs: string }): RawRun[] {
    let runs = this.parsed.get(row.seq);
    if (!runs) {
      runs = decodeBatch(row.runs);
      if (this.parsed.size >= CACHED_BATCHES) {
        const oldest = Math.min(...this.parsed.keys());
        if (oldest > row.seq) return runs;
        this.parsed.delete(oldest);
      }
      this.parsed.set(row.seq, runs);
    }
    return runs;
  }

  private find(id: string): { raw: RawRun; seq: number } | undefined {
    const n = idNumber(id);
    if (n < 0) return undefined;
    const rows = this.db
      .prepare(
        'SELECT seq, last_id, runs FROM run_batches WHERE max_id >= ? AND min_id <= ? ORDER BY seq DESC',
      )
      .all(n, n) as unknown as BatchRow[];
    for (const row of rows) {
      const raw = this.batch(row).find((r) => r.id === n);
      if (raw) return { raw, seq: row.seq };
    }
    return undefined;
  }

  /**
   * A run's steps: they start after it and end before it, so they are in its own batch or in
   * the batches written while it ran (whose last_id is at least its id).
   */
  private childrenOf(parent: RawRun, seq: number): { raw: RawRun; seq: number }[] {
    const rows = this.db
      .prepare(
        'SELECT seq, last_id, runs FROM run_batches WHERE seq <= ? AND last_id >= ? AND max_id > ? ORDER BY seq DESC',
      )
      .all(seq, parent.id, parent.id) as unknown as BatchRow[];
    const out: { raw: RawRun; seq: number }[] = [];
    for (const row of rows)
      for (const raw of this.batch(row))
        if (raw.parent_id === parent.id) out.push({ raw, seq: row.seq });
    return out;
  }

  /** Only procedures, hooks and crons have steps (an action's inner calls are not scoped to it). */
  private stepsOf(raw: RawRun, seq: number): number {
    return raw.kind === 'action' ? 0 : this.childrenOf(raw, seq).length;
  }

  /** Token names by id, looked up once per read (the name shown is the token's current one). */
  private tokenNames(): (id: string) => string | undefined {
    const names = new Map<string, string | undefined>();
    return (id) => {
      if (!names.has(id))
        names.set(id, (this.tokenStmt.get(id) as { name: string } | undefined)?.name);
      return names.get(id);
    };
  }
}

export { RUN_ID } from './run-filter.ts';
