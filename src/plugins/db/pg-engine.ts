import pg from 'pg';
import { PipitError } from '../api/index.ts';
import type { Engine, EngineLimits, Statement } from './engine.ts';
import type { EngineTarget } from './engine-url.ts';
import { dbError } from './errors.ts';
import { plainRow } from './values.ts';
import type { Row } from './values.ts';

// Values as Platypush (SQLAlchemy + its JSON encoder) answers them: BIGINT and NUMERIC as numbers
// (BIGINT past 2^53 as text, to keep its digits), dates and timestamps as ISO 8601 text as
// written by the server, not shifted into this host's time zone by a JS Date.
const PARSERS: Record<number, (text: string) => unknown> = {
  20: (t) => (Number.isSafeInteger(Number(t)) ? Number(t) : t),
  1700: (t) => Number(t),
  1082: (t) => t,
  1114: (t) => t.replace(' ', 'T'),
  1184: (t) => t.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'),
};
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    (format ?? 'text') === 'text' && PARSERS[oid]
      ? PARSERS[oid]
      : (pg.types.getTypeParser(oid, format) as unknown)) as pg.CustomTypesConfig['getTypeParser'],
};

/** A server's own error (it has an SQLSTATE): the connection is still good after it. */
const isServerError = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
};

/**
 * A PostgreSQL database through a `pg` pool of its own (one per URL), every wait bounded: the
 * connection (`connect_timeout`, also the wait for a free connection), each statement
 * (`statement_timeout` on the server, and a little more on the client for a silent network).
 *
 * @example
 * const engine = postgresEngine(target, limits, (err) => log.warn({ err }, 'idle connection lost'));
 */
export function postgresEngine(
  target: Extract<EngineTarget, { kind: 'postgresql' }>,
  limits: EngineLimits,
  onIdleError: (err: Error) => void,
): Engine {
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: limits.poolSize,
    connectionTimeoutMillis: Math.round(limits.connectTimeout * 1000),
    statement_timeout: Math.round(limits.statementTimeout * 1000),
    query_timeout: Math.round(limits.statementTimeout * 1000) + 2000,
    idleTimeoutMillis: 10_000,
    keepAlive: true,
    allowExitOnIdle: true,
    application_name: 'pipit',
    types: TYPES,
  });
  // An idle connection the server drops (a restart) must not crash the process: the pool
  // discards it and opens a new one for the next call.
  pool.on('error', onIdleError);
  const timeout = limits.statementTimeout;

  async function withClient<T>(
    action: string,
    first: string,
    signal: AbortSignal,
    work: (client: pg.PoolClient, at: (sql: string) => void) => Promise<T>,
  ): Promise<T> {
    let current = first;
    const where = () => ({ action, label: target.label, sql: current, timeout });
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw dbError(err, where());
    }
    let released = false;
    const release = (destroy: boolean) => {
      if (released) return;
      released = true;
      client.release(destroy);
    };
    // A caller that gives up closes the connection: the server ends the statement then.
    const onAbort = () => release(true);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await work(client, (sql) => (current = sql));
    } catch (err) {
      if (signal.aborted)
        throw new PipitError('ACTION_FAILED', `${action}: the caller gave up`, { cause: err });
      release(!isServerError(err));
      throw dbError(err, where());
    } finally {
      signal.removeEventListener('abort', onAbort);
      release(false);
    }
  }

  const rowsOf = (result: pg.QueryResult) =>
    result.rows.map((r: Record<string, unknown>) => plainRow(r));
  return {
    dialect: 'postgresql',
    label: target.label,
    query: (action, statement, signal) =>
      withClient(action, statement.sql, signal, async (client) =>
        rowsOf(await client.query({ text: statement.sql, values: statement.params })),
      ),
    batch: (action, statements: Statement[], signal) =>
      withClient(action, 'BEGIN', signal, async (client, at) => {
        await client.query('BEGIN');
        try {
          const rows: Row[][] = [];
          for (const s of statements) {
            at(s.sql);
            rows.push(rowsOf(await client.query({ text: s.sql, values: s.params })));
          }
          at('COMMIT');
          await client.query('COMMIT');
          return rows;
        } catch (err) {
          if (isServerError(err)) await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
      }),
    script: (action, sql, signal) =>
      withClient(action, sql, signal, async (client) => {
        await client.query(sql);
      }),
    close: () => pool.end(),
  };
}
