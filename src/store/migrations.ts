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
  {
    // A row per run cost SQLite ~2 µs per request, half the price of recording: runs are now
    // written in batches, one row each (store/runs.ts), and the rows of version 2 move into them.
    version: 3,
    name: 'run history in batches',
    sql: `
      CREATE TABLE run_batches (
        seq INTEGER PRIMARY KEY,
        min_id INTEGER NOT NULL,
        max_id INTEGER NOT NULL,
        last_id INTEGER NOT NULL,
        size INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        runs TEXT NOT NULL
      );
      CREATE INDEX run_batches_max ON run_batches(max_id);
      INSERT INTO run_batches (min_id, max_id, last_id, size, failed, runs)
        SELECT min(id), max(id), max(id), count(*), sum(outcome = 'failed'),
          '[' || group_concat(doc, ',') || ']'
        FROM (
          SELECT id, outcome, (row_number() OVER (ORDER BY id) - 1) / 256 AS batch,
            json_object(
              'id', id, 'parent_id', parent_id, 'root_id', root_id, 'kind', kind, 'name', name,
              'transport', transport,
              'caller', CASE WHEN caller_user IS NULL THEN NULL ELSE json_object(
                'user', caller_user, 'via', caller_via, 'token_id', caller_token_id) END,
              'trigger', CASE WHEN coalesce(hook, cron, event_id, event_type) IS NULL THEN NULL
                ELSE json_object('hook', hook, 'cron', cron, 'event_id', event_id,
                  'event_type', event_type) END,
              'args', CASE WHEN json_valid(args) THEN json(args) ELSE args END,
              'args_truncated', CASE WHEN json_valid(args) THEN NULL ELSE json('true') END,
              'started_at', started_at, 'duration_ms', duration_ms, 'outcome', outcome,
              'error_code', error_code,
              'errors', CASE WHEN json_valid(errors) THEN json(errors) ELSE json_array(errors) END,
              'output', CASE WHEN output IS NULL THEN NULL
                WHEN output_truncated = 0 AND json_valid(output) THEN json(output) ELSE output END,
              'output_truncated', CASE WHEN output_truncated = 1 THEN json('true') ELSE NULL END,
              'replay_of', replay_of) AS doc
          FROM runs
        )
        GROUP BY batch ORDER BY batch;
      DROP TABLE runs;
    `,
  },
  {
    // Pruning sums the batches' sizes and looks for old batches once per step
    // (store/run-prune.ts): without an index both read every row's page (a 25 KB batch fills
    // one), ~4 ms a step with a minute's backlog of a busy service. The index holds what those
    // queries read.
    version: 4,
    name: 'an index for pruning the run history',
    sql: `
      CREATE INDEX run_batches_min ON run_batches(min_id, size, max_id);
    `,
  },
];
