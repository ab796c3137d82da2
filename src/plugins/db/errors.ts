import { PipitError } from '../api/index.ts';

/** What a failed statement was: for the message. */
export interface Where {
  /** `db.select`... */
  action: string;
  /** The engine URL without its password. */
  label: string;
  /** The statement (only its first words are shown). */
  sql: string;
  /** The timeout that applied, in seconds: PostgreSQL's statement timeout, SQLite's busy wait. */
  timeout: number;
}

// Connection-level failures of node's sockets: the server is not there (or went away).
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * The first words of a statement, for messages: enough to tell which one failed, not the whole
 * (it may be long).
 *
 * @example
 * firstWords('INSERT INTO "readings" ("name") VALUES ($1) RETURNING *'); // 'INSERT INTO "readings" ("name") VALUES …'
 */
export function firstWords(sql: string): string {
  const words = sql.trim().split(/\s+/);
  const head = words.slice(0, 5).join(' ');
  return head.length > 60 ? `${head.slice(0, 60)}…` : words.length > 5 ? `${head} …` : head;
}

/**
 * A copy of a driver's error that keeps its message, stack and plain facts (code, severity,
 * detail...) and nothing else: `pg` hangs its client (the connection's parameters) on some
 * errors, which have no place in a log line or a run record.
 *
 * @example
 * log.warn({ err: plainError(err) }, 'connection lost');
 */
export function plainError(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  const copy = new Error(err.message);
  copy.stack = err.stack ?? '';
  for (const [key, value] of Object.entries(err))
    if (key !== 'message' && key !== 'stack' && value !== undefined && typeof value !== 'object')
      (copy as unknown as Record<string, unknown>)[key] = value;
  return copy;
}

/**
 * A driver's error as a PipitError: a server that cannot be reached or is shutting down is
 * UNAVAILABLE, a statement or lock wait that ran out of time is TIMEOUT, a refused login names
 * what to fix, anything else is ACTION_FAILED with the database's own message. Every message
 * names the engine by its URL without the password.
 *
 * @example
 * throw dbError(err, { action: 'db.select', label, sql, timeout: 30 });
 */
export function dbError(err: unknown, where: Where): PipitError {
  if (err instanceof PipitError) return err;
  const e = (err ?? {}) as {
    code?: unknown;
    errcode?: unknown;
    message?: unknown;
    detail?: unknown;
    hint?: unknown;
  };
  const code = typeof e.code === 'string' ? e.code : '';
  const text = (typeof e.message === 'string' && e.message) || code || String(err);
  const on = `${where.action} on ${where.label}`;
  const statement = `"${firstWords(where.sql)}"`;
  const fail = (kind: 'ACTION_FAILED' | 'TIMEOUT' | 'UNAVAILABLE', message: string) =>
    new PipitError(kind, message, { cause: plainError(err) });

  // SQLite (node:sqlite): errcode is SQLite's result code, possibly extended.
  if (code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    if ((e.errcode & 0xff) === 5 || (e.errcode & 0xff) === 6)
      return fail(
        'TIMEOUT',
        `${on}: ${statement} waited ${where.timeout} s for a database another connection has locked (${text}): retry, or raise db.busy_timeout`,
      );
    if ((e.errcode & 0xff) === 14)
      return fail(
        'ACTION_FAILED',
        `${on}: cannot open the database file (${text}): does its folder exist?`,
      );
    return fail('ACTION_FAILED', `${on}: ${statement} failed: ${text}`);
  }
  // PostgreSQL: a five-character SQLSTATE from the server.
  if (/^[0-9A-Z]{5}$/.test(code)) {
    const extra = [e.detail, e.hint].filter((x) => typeof x === 'string' && x).join(' ');
    const said = `${text}${extra ? ` (${extra})` : ''}`;
    if (code === '57014' || code === '55P03')
      return fail(
        'TIMEOUT',
        `${on}: ${statement} ran out of time (${said}): the limit is ${where.timeout} s (db.statement_timeout)`,
      );
    if (code === '28P01' || code === '28000')
      return fail(
        'ACTION_FAILED',
        `${on}: PostgreSQL refused the login: ${text}: fix the user or password in the engine URL (db.engine, or the call's engine)`,
      );
    if (code.startsWith('08') || code.startsWith('57P') || code === '53300')
      return fail('UNAVAILABLE', `${on}: PostgreSQL is not available: ${text}`);
    return fail('ACTION_FAILED', `${on}: ${statement} failed: ${said}`);
  }
  if (code === 'ETIMEDOUT' || /timeout/i.test(text))
    return fail(
      'TIMEOUT',
      `${on}: ${statement} got no answer in time (${text}): is the server overloaded or the network down?`,
    );
  if (UNREACHABLE.has(code) || /Connection terminated|not queryable|ended/i.test(text))
    return fail('UNAVAILABLE', `${on}: PostgreSQL is not reachable: ${text}`);
  return fail('ACTION_FAILED', `${on}: ${statement} failed: ${text}`);
}
