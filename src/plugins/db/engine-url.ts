import { PipitError } from '../api/index.ts';

/** Where an engine URL points, parsed: a SQLite file (or memory) or a PostgreSQL server. */
export type EngineTarget =
  | {
      kind: 'sqlite';
      /** The file as SQLAlchemy reads the URL (relative to Pipit's working directory), or `:memory:`. */
      path: string;
      /** `?timeout=` in seconds (SQLAlchemy's sqlite connect argument), when given. */
      busyTimeout?: number;
      /** The URL as shown in messages (it holds no secret). */
      label: string;
    }
  | {
      kind: 'postgresql';
      /** The URL for `pg`: scheme `postgresql://`, SQLAlchemy's `+driver` taken out. */
      connectionString: string;
      /** `postgresql://user:***@host:port/db`: the URL without its password or query. */
      label: string;
    };

const SQLITE_OPTIONS = new Set(['timeout', 'check_same_thread']);
const HELP =
  'use sqlite:///relative/path.db, sqlite:////absolute/path.db or postgresql://user:password@host:port/db';

/**
 * Reads an engine URL with SQLAlchemy's rules: `sqlite://` and `sqlite:///:memory:` are an
 * in-memory database, `sqlite:///data.db` a path relative to the working directory,
 * `sqlite:////var/lib/x.db` an absolute one; `postgresql://`, `postgres://` and
 * `postgresql+<driver>://` (psycopg2, pg8000... as Platypush configurations name them) a server.
 * Messages never repeat the URL, which may hold a password.
 *
 * @example
 * parseEngineUrl('sqlite:////tmp/x.db'); // { kind: 'sqlite', path: '/tmp/x.db', label: 'sqlite:////tmp/x.db' }
 */
export function parseEngineUrl(url: string): EngineTarget {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1];
  if (!scheme)
    throw new PipitError('INVALID_ARGUMENTS', `engine is not a URL (scheme://...): ${HELP}`);
  const [dialect] = scheme.toLowerCase().split('+');
  if (dialect === 'sqlite') return sqliteTarget(url.slice(scheme.length + 3));
  if (dialect === 'postgresql' || dialect === 'postgres')
    return postgresTarget(`postgresql://${url.slice(scheme.length + 3)}`);
  throw new PipitError(
    'INVALID_ARGUMENTS',
    `engine scheme "${scheme}" is not supported (db speaks SQLite and PostgreSQL): ${HELP}`,
  );
}

function sqliteTarget(rest: string): EngineTarget {
  const at = rest.indexOf('?');
  const where = at < 0 ? rest : rest.slice(0, at);
  const label = `sqlite://${where}`;
  if (where !== '' && !where.startsWith('/'))
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `engine "${label}" names a host, which a SQLite URL has none of: write sqlite:///relative/path.db (three slashes) or sqlite:////absolute/path.db (four)`,
    );
  const path = where.slice(1);
  const target: EngineTarget = { kind: 'sqlite', path: path === '' ? ':memory:' : path, label };
  for (const [key, value] of new URLSearchParams(at < 0 ? '' : rest.slice(at + 1))) {
    if (!SQLITE_OPTIONS.has(key))
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `engine "${label}": option "${key}" is not supported for SQLite (only ${[...SQLITE_OPTIONS].join(', ')})`,
      );
    if (key !== 'timeout') continue;
    const seconds = Number(value);
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > 60)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `engine "${label}": timeout=${value} is not a number of seconds from 0 to 60`,
      );
    target.busyTimeout = seconds;
  }
  return target;
}

function postgresTarget(url: string): EngineTarget {
  // `user:password@/db?host=/var/run/postgresql` (a Unix socket, as SQLAlchemy and libpq write
  // it) has an empty host, which the URL parser refuses but pg reads: checked with a stand-in.
  const socket = /^postgresql:\/\/[^/?#]*@(?=[/?#]|$)/.test(url);
  const parsed = URL.parse(socket ? url.replace(/@(?=[/?#]|$)/, '@localhost') : url);
  // Not the URL parser's error: it would carry the whole URL, password included.
  if (!parsed)
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `engine is not a valid PostgreSQL URL (check the characters of the password: percent-encode @ : / ? #): ${HELP}`,
    );
  const user = parsed.username ? `${parsed.username}${parsed.password ? ':***' : ''}@` : '';
  return {
    kind: 'postgresql',
    connectionString: url,
    label: `postgresql://${user}${socket ? '' : parsed.host}${parsed.pathname}`,
  };
}
