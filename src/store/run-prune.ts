import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { decodeBatch } from './run-codec.ts';
import type { RawRun } from './run-codec.ts';

/**
 * Deletes old batches of the run history (see `Runs.prune`), in steps of a bounded number of
 * batches, each one transaction.
 *
 * @example
 * const pruner = new RunPruner(db, () => runs.count());
 * while (pruner.step(runIdAt(Date.now() - maxAgeMs), 10_000, 64)) await nextTurn();
 */
export class RunPruner {
  readonly #db: DatabaseSync;
  readonly #count: () => number;
  readonly #delete: StatementSync;
  readonly #byAge: StatementSync;
  readonly #oldest: StatementSync;
  readonly #text: StatementSync;
  readonly #update: StatementSync;

  constructor(db: DatabaseSync, count: () => number) {
    this.#db = db;
    this.#count = count;
    this.#delete = db.prepare('DELETE FROM run_batches WHERE seq = ?');
    // Read from the index (min_id, size, max_id): no batch's text unless it is written again.
    this.#byAge = db.prepare(
      'SELECT seq, size, max_id FROM run_batches WHERE min_id < ? ORDER BY min_id LIMIT ?',
    );
    this.#oldest = db.prepare('SELECT seq, size FROM run_batches ORDER BY seq LIMIT 1');
    this.#text = db.prepare('SELECT runs FROM run_batches WHERE seq = ?');
    this.#update = db.prepare(
      'UPDATE run_batches SET min_id = ?, max_id = ?, size = ?, failed = ?, runs = ? WHERE seq = ?',
    );
  }

  /**
   * Deletes runs with ids below `cutoff`, then all but the newest `maxCount`, deleting or writing
   * again at most `maxBatches` batches; returns how many runs went (0: nothing left to prune).
   */
  step(cutoff: number, maxCount: number, maxBatches = Infinity): number {
    let budget = maxBatches;
    let deleted = 0;
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const old = this.#byAge.all(cutoff, Number.isFinite(budget) ? budget : -1) as {
        seq: number;
        size: number;
        max_id: number;
      }[];
      for (const row of old) {
        budget--;
        if (row.max_id < cutoff) {
          this.#delete.run(row.seq);
          deleted += row.size;
        } else {
          const kept = this.#runsOf(row.seq).filter((r) => r.id >= cutoff);
          deleted += row.size - kept.length;
          this.#rewrite(row.seq, kept);
        }
      }
      let excess = budget > 0 ? this.#count() - maxCount : 0;
      for (; excess > 0 && budget > 0; budget--) {
        const row = this.#oldest.get() as { seq: number; size: number } | undefined;
        if (!row) break;
        if (row.size <= excess) {
          this.#delete.run(row.seq);
          excess -= row.size;
          deleted += row.size;
        } else {
          const kept = this.#runsOf(row.seq)
            .sort((a, b) => a.id - b.id)
            .slice(excess);
          deleted += excess;
          excess = 0;
          this.#rewrite(row.seq, kept);
        }
      }
      this.#db.exec('COMMIT');
    } catch (err) {
      this.#db.exec('ROLLBACK');
      throw err;
    }
    return deleted;
  }

  #runsOf(seq: number): RawRun[] {
    return decodeBatch((this.#text.get(seq) as { runs: string }).runs);
  }

  // The batch on the boundary, without the runs that went (as plain RawRun objects).
  #rewrite(seq: number, runs: RawRun[]): void {
    if (!runs.length) {
      this.#delete.run(seq);
      return;
    }
    const ids = runs.map((r) => r.id);
    this.#update.run(
      Math.min(...ids),
      Math.max(...ids),
      runs.length,
      runs.filter((r) => r.outcome === 'failed').length,
      JSON.stringify(runs),
      seq,
    );
  }
}
