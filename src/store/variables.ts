import type { DatabaseSync } from 'node:sqlite';
import { toJsonLimited } from '../core/json-limits.ts';

/**
 * Named JSON values that survive restarts (the `variable` plugin).
 *
 * @example
 * variables.set('mode', { away: true });
 * variables.get('mode'); // { away: true }
 */
export class Variables {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  get(name: string): unknown {
    const row = this.db.prepare('SELECT value FROM variables WHERE name = ?').get(name) as
      { value: string } | undefined;
    return row ? (JSON.parse(row.value) as unknown) : undefined;
  }

  /**
   * Stores one variable. A value that cannot be JSON within the limits (circular, a BigInt, nested
   * past `MAX_JSON_DEPTH`) is refused with INVALID_ARGUMENTS naming the variable; nothing is written.
   */
  set(name: string, value: unknown): void {
    this.setMany({ [name]: value });
  }

  /** Stores several variables in one transaction: all of them, or (on a bad value) none. */
  setMany(values: Record<string, unknown>): void {
    const rows = Object.entries(values).map(
      ([name, value]) =>
        [
          name,
          toJsonLimited(value ?? null, `the value of variable "${name}"`, 'INVALID_ARGUMENTS'),
        ] as const,
    );
    const upsert = this.db.prepare(
      'INSERT INTO variables (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    );
    const now = Date.now() / 1000;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const [name, json] of rows) upsert.run(name, json, now);
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  unset(name: string): boolean {
    return this.db.prepare('DELETE FROM variables WHERE name = ?').run(name).changes > 0;
  }

  all(): Record<string, unknown> {
    const rows = this.db.prepare('SELECT name, value FROM variables ORDER BY name').all() as {
      name: string;
      value: string;
    }[];
    return Object.fromEntries(rows.map((r) => [r.name, JSON.parse(r.value) as unknown]));
  }
}
