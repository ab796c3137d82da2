import { DatabaseSync } from 'node:sqlite';
import type { Engine, EngineLimits, Statement } from './engine.ts';
import type { EngineTarget } from './engine-url.ts';
import { dbError } from './errors.ts';
import { plainRow, sqliteValue } from './values.ts';
import type { Row } from './values.ts';

/**
 * A SQLite database through node:sqlite: one connection per URL, opened on first use (creating the
 * file, as SQLAlchemy does) and kept until the plugin stops, so `sqlite://` (memory) keeps its
 * tables between calls. node:sqlite is synchronous: each call runs whole before another starts,
 * which also keeps a transaction from interleaving with another call's statements.
 *
 * @example
 * const engine = sqliteEngine({ kind: 'sqlite', path: '/tmp/x.db', label: 'sqlite:////tmp/x.db' }, limits);
 */
export function sqliteEngine(
  target: Extract<EngineTarget, { kind: 'sqlite' }>,
  limits: EngineLimits,
): Engine {
  let db: DatabaseSync | undefined;
  const busy = target.busyTimeout ?? limits.busyTimeout;
  const where = (action: string, sql: string) => ({
    action,
    label: target.label,
    sql,
    timeout: busy,
  });
  // A row of BIGINTs read as bigint, not as doubles that would lose digits (plainRow decides).
  const open = () =>
    (db ??= new DatabaseSync(target.path, { timeout: Math.round(busy * 1000), readBigInts: true }));
  const run = (statement: Statement): Row[] =>
    open()
      .prepare(statement.sql)
      .all(...(statement.params.map(sqliteValue) as Parameters<DatabaseSync['exec']>))
      .map((row) => plainRow(row as Record<string, unknown>));
  return {
    dialect: 'sqlite',
    label: target.label,
    query(action, statement) {
      try {
        return Promise.resolve(run(statement));
      } catch (err) {
        return Promise.reject(dbError(err, where(action, statement.sql)));
      }
    },
    batch(action, statements) {
      let current = 'BEGIN IMMEDIATE';
      const conn = (() => {
        try {
          return open();
        } catch (err) {
          throw dbError(err, where(action, current));
        }
      })();
      try {
        conn.exec(current);
        const rows = statements.map((s) => {
          current = s.sql;
          return run(s);
        });
        current = 'COMMIT';
        conn.exec(current);
        return Promise.resolve(rows);
      } catch (err) {
        if (conn.isTransaction) conn.exec('ROLLBACK');
        return Promise.reject(dbError(err, where(action, current)));
      }
    },
    script(action, sql) {
      try {
        open().exec(sql);
        return Promise.resolve();
      } catch (err) {
        return Promise.reject(dbError(err, where(action, sql)));
      }
    },
    close() {
      if (db?.isOpen) db.close();
      db = undefined;
      return Promise.resolve();
    },
  };
}
