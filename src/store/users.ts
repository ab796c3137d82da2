import type { DatabaseSync } from 'node:sqlite';
import { PipitError } from '../core/errors.ts';

/** A user as stored (the hash never leaves the auth layer). */
export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  created_at: number;
}

/** User names: letters, digits, `.`, `_`, `-`, `@`; 1 to 64 characters. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

function checkUsername(username: string): void {
  if (!USERNAME_PATTERN.test(username)) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `user name ${JSON.stringify(username)} is not allowed: use 1 to 64 letters, digits, ".", "_", "-" or "@"`,
    );
  }
}

/**
 * Users in the embedded database.
 *
 * @example
 * const users = new Users(db);
 * users.create('ada', hash);
 */
export class Users {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number }).n;
  }

  create(username: string, passwordHash: string): UserRow {
    checkUsername(username);
    if (this.byName(username))
      throw new PipitError('CONFLICT', `a user named "${username}" already exists`);
    const now = Date.now() / 1000;
    const res = this.db
      .prepare('INSERT INTO users (username, password_hash, created_at) VALUES (?, ?, ?)')
      .run(username, passwordHash, now);
    return {
      id: Number(res.lastInsertRowid),
      username,
      password_hash: passwordHash,
      created_at: now,
    };
  }

  /**
   * Creates the first user, or nobody: the emptiness check and the insert are one statement, so
   * however many registrations race (in this process or another), at most one gets a row.
   * Undefined when a user already exists.
   */
  createFirst(username: string, passwordHash: string): UserRow | undefined {
    checkUsername(username);
    const now = Date.now() / 1000;
    const res = this.db
      .prepare(
        'INSERT INTO users (username, password_hash, created_at) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM users)',
      )
      .run(username, passwordHash, now);
    if (res.changes === 0) return undefined;
    return {
      id: Number(res.lastInsertRowid),
      username,
      password_hash: passwordHash,
      created_at: now,
    };
  }

  byName(username: string): UserRow | undefined {
    return this.db.prepare('SELECT * FROM users WHERE username = ?').get(username) as
      UserRow | undefined;
  }

  byId(id: number): UserRow | undefined {
    return this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  }

  list(): Omit<UserRow, 'password_hash'>[] {
    return this.db.prepare('SELECT id, username, created_at FROM users ORDER BY id').all() as Omit<
      UserRow,
      'password_hash'
    >[];
  }

  setPassword(id: number, passwordHash: string): void {
    this.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, id);
  }

  /** Removes a user with their sessions and tokens (cascade). */
  remove(id: number): boolean {
    return this.db.prepare('DELETE FROM users WHERE id = ?').run(id).changes > 0;
  }
}
