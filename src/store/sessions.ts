import type { DatabaseSync } from 'node:sqlite';

/** A browser session (the cookie holds the secret; the row is keyed by its SHA-256). */
export interface SessionRow {
  id: string;
  user_id: number;
  csrf_token: string;
  created_at: number;
  expires_at: number;
}

/**
 * Web UI sessions.
 *
 * @example
 * sessions.create({ id: sha256(secret), user_id: 1, csrf_token: 'x', expires_at: now + 86400 });
 */
export class Sessions {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  create(row: Omit<SessionRow, 'created_at'>): void {
    this.db
      .prepare(
        'INSERT INTO sessions (id, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(row.id, row.user_id, row.csrf_token, Date.now() / 1000, row.expires_at);
  }

  /** The live session with this id, or undefined (expired rows are removed on sight). */
  get(id: string): SessionRow | undefined {
    const row = this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as
      SessionRow | undefined;
    if (row && row.expires_at <= Date.now() / 1000) {
      this.remove(id);
      return undefined;
    }
    return row;
  }

  remove(id: string): void {
    this.db.prepare('DELETE FROM sessions WHERE id = ?').run(id);
  }

  removeForUser(userId: number): void {
    this.db.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId);
  }

  purgeExpired(): number {
    return Number(
      this.db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(Date.now() / 1000).changes,
    );
  }
}
