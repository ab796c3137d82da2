/**
 * Versioned schema migrations, applied in order inside one transaction each. Append only: a
 * released migration is never edited, a change is a new entry.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'users, sessions, api tokens, variables, plugin storage',
    sql: `
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        username TEXT NOT NULL UNIQUE COLLATE NOCASE,
        password_hash TEXT NOT NULL,
        created_at REAL NOT NULL
      );
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        csrf_token TEXT NOT NULL,
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL
      );
      CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        created_at REAL NOT NULL,
        expires_at REAL,
        last_used_at REAL
      );
      CREATE TABLE variables (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at REAL NOT NULL
      );
      CREATE TABLE plugin_kv (
        plugin TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (plugin, key)
      );
    `,
  },
  {
    version: 2,
    name: 'run history',
    sql: `
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        parent_id INTEGER,
        root_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        transport TEXT NOT NULL,
        caller_user TEXT,
        caller_via TEXT,
        caller_token_id TEXT,
        hook TEXT,
        cron TEXT,
        event_id TEXT,
        event_type TEXT,
        args TEXT NOT NULL,
        started_at REAL NOT NULL,
        duration_ms REAL NOT NULL,
        outcome TEXT NOT NULL,
        error_code TEXT,
        errors TEXT NOT NULL,
        output TEXT,
        output_truncated INTEGER NOT NULL DEFAULT 0,
        replay_of INTEGER
      );
      CREATE INDEX runs_parent ON runs(parent_id) WHERE parent_id IS NOT NULL;
      CREATE INDEX runs_event ON runs(event_id) WHERE event_id IS NOT NULL;
    `,
  },
];
