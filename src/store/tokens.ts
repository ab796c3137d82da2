import type { DatabaseSync } from 'node:sqlite';

/** An API token's record; the JWT itself is never stored, only its id (`jti`). */
export interface TokenRow {
  id: string;
  user_id: number;
  name: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

/**
 * API tokens (JWT ids) that can be listed and revoked.
 *
 * @example
 * tokens.create({ id: jti, user_id: 1, name: 'cli', expires_at: null });
 */
export class Tokens {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  create(row: Pick<TokenRow, 'id' | 'user_id' | 'name' | 'expires_at'>): TokenRow {
    const created = Date.now() / 1000;
    this.db
      .prepare(
        'INSERT INTO api_tokens (id, user_id, name, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(row.id, row.user_id, row.name, created, row.expires_at);
    return { ...row, created_at: created, last_used_at: null };
  }

  get(id: string): TokenRow | undefined {
    return this.db.prepare('SELECT * FROM api_tokens WHERE id = ?').get(id) as TokenRow | undefined;
  }

  listForUser(userId: number): TokenRow[] {
    return this.db
      .prepare('SELECT * FROM api_tokens WHERE user_id = ? ORDER BY created_at DESC')
      .all(userId) as unknown as TokenRow[];
  }

  touch(id: string, at: number): void {
    this.db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  revoke(id: string): boolean {
    return this.db.prepare('DELETE FROM api_tokens WHERE id = ?').run(id).changes > 0;
  }
}
