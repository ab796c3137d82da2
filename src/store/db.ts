import { chmodSync, closeSync, constants, existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as Sqlite from 'node:sqlite';
import type { DatabaseSync } from 'node:sqlite';
import { PipitError } from '../core/errors.ts';
// Evaluated before this module: on an older Node.js it throws "Pipit needs Node.js 24".
import '../lib/node-version.ts';
import { MIGRATIONS } from './migrations.ts';

// Required rather than imported: a static import of node:sqlite fails while the module graph is
// linked, before src/lib/node-version.ts (imported above) can tell an older Node what Pipit needs.
const { DatabaseSync: Database } = createRequire(import.meta.url)('node:sqlite') as typeof Sqlite;

/**
 * Opens (creating if needed) the embedded database and applies pending migrations. WAL mode lets the
 * CLI and a running service share the file; `busy_timeout` makes them wait rather than fail.
 *
 * @example
 * const db = openDatabase('/var/lib/pipit/pipit.db');
 */
export function openDatabase(path: string): DatabaseSync {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    ownerOnly(path);
  }
  let db: DatabaseSync;
  try {
    db = new Database(path);
  } catch (err) {
    throw new PipitError(
      'UNAVAILABLE',
      `cannot open the database at ${path}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  // The timeout first: switching to WAL waits for another connection's lock like anything else.
  db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;');
  migrate(db);
  return db;
}

/**
 * The database holds password hashes and session secrets: it is created 0600 before SQLite opens
 * it (SQLite gives its -wal and -shm files the database's own mode), and a database or journal left
 * readable by an older version is narrowed to 0600, whatever the umask and the directory's mode.
 */
function ownerOnly(path: string): void {
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_RDWR, 0o600));
    for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
      if (existsSync(file)) chmodSync(file, 0o600);
    }
  } catch (err) {
    throw new PipitError(
      'UNAVAILABLE',
      `cannot create the database at ${path} with owner-only permissions: ${(err as Error).message}`,
      { cause: err },
    );
  }
}

/**
 * Applies every migration newer than the database's version, each in its own transaction.
 *
 * @example
 * migrate(new DatabaseSync(':memory:'));
 */
export function migrate(db: DatabaseSync): number {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)',
  );
  const row = db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations').get() as {
    v: number;
  };
  const newest = MIGRATIONS.at(-1)?.version ?? 0;
  if (row.v > newest) {
    throw new PipitError(
      'UNAVAILABLE',
      `the database is at schema version ${row.v}, newer than this Pipit knows (${newest}): upgrade Pipit`,
    );
  }
  let applied = 0;
  for (const m of MIGRATIONS) {
    if (m.version <= row.v) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Date.now() / 1000,
      );
      db.exec('COMMIT');
      applied++;
    } catch (err) {
      db.exec('ROLLBACK');
      throw new PipitError('UNAVAILABLE', `database migration ${m.version} (${m.name}) failed`, {
        cause: err,
      });
    }
  }
  return applied;
}
