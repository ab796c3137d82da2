import type { DatabaseSync } from 'node:sqlite';

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

  set(name: string, value: unknown): void {
    this.db
      .prepare(
        'INSERT INTO variables (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      )
      .run(name, JSON.stringify(value ?? null), Date.now() / 1000);
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
