import { PipitError } from '../api/index.ts';

/** Which SQL the statement is written in: their quoting and placeholders differ. */
export type Dialect = 'sqlite' | 'postgresql';

/** A statement ready for the driver: placeholders numbered, values in order. */
export interface Bound {
  sql: string;
  params: unknown[];
  /** How many statements the text holds (`;`-separated, comments and blanks aside). */
  statements: number;
}

/** Values for a statement's placeholders: by name (`:name`) or by position (`?`). */
export type Data = Record<string, unknown> | unknown[];

/** The driver's placeholder for the n-th value (1-based). */
export function placeholder(dialect: Dialect, n: number): string {
  return dialect === 'postgresql' ? `$${n}` : `?${n}`;
}

const WORD = /[A-Za-z0-9_]/;
const NAME = /:([A-Za-z_][A-Za-z0-9_]*)/y;
const DOLLAR_TAG = /\$([A-Za-z_][A-Za-z0-9_]*)?\$/y;
const DOLLAR_PARAM = /\$\d+/y;
const SQLITE_PARAM = /\?\d+/y;

/**
 * Binds `data` to a statement written with Platypush's (SQLAlchemy's) placeholders: `:name` with
 * `data` an object, or `?` with `data` a list; both become the driver's numbered placeholders
 * (`$1` for PostgreSQL, `?1` for SQLite). Quoted strings, quoted names, comments, dollar-quoted
 * bodies and `::` casts are left alone; `\:` is a literal colon. The values are never written
 * into the SQL.
 *
 * @example
 * bindData('db.select', 'SELECT * FROM t WHERE name = :name', { name: "O'Brien" }, 'postgresql');
 * // { sql: 'SELECT * FROM t WHERE name = $1', params: ["O'Brien"], statements: 1 }
 */
export function bindData(
  action: string,
  sql: string,
  data: Data | undefined,
  dialect: Dialect,
): Bound {
  const list = Array.isArray(data) ? data : undefined;
  const byName = new Map<string, number>();
  const params: unknown[] = [];
  let positional = 0;
  let native = false;
  let out = '';
  let statements = 0;
  let code = false;
  let i = 0;
  const copyTo = (end: number) => {
    out += sql.slice(i, end);
    i = end;
  };
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    const before = sql[i - 1] ?? '';
    if (c === "'") {
      // E'...' strings take backslash escapes in PostgreSQL.
      const escapes =
        dialect === 'postgresql' && /[Ee]/.test(before) && !WORD.test(sql[i - 2] ?? '');
      copyTo(endOfQuoted(sql, i, "'", escapes));
      code = true;
    } else if (c === '"' || (dialect === 'sqlite' && c === '`')) {
      copyTo(endOfQuoted(sql, i, c, false));
      code = true;
    } else if (dialect === 'sqlite' && c === '[') {
      const end = sql.indexOf(']', i);
      copyTo(end < 0 ? sql.length : end + 1);
      code = true;
    } else if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      copyTo(end < 0 ? sql.length : end);
    } else if (c === '/' && next === '*') {
      copyTo(endOfComment(sql, i, dialect === 'postgresql'));
    } else if (c === '$' && dialect === 'postgresql' && !WORD.test(before)) {
      const tag = match(DOLLAR_TAG, sql, i);
      const param = match(DOLLAR_PARAM, sql, i);
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        copyTo(end < 0 ? sql.length : end + tag.length);
      } else {
        native ||= param !== undefined;
        copyTo(i + (param?.length ?? 1));
      }
      code = true;
    } else if (c === '\\' && next === ':') {
      out += ':';
      i += 2;
      code = true;
    } else if (c === ':' && next === ':') {
      copyTo(i + 2);
    } else if (c === ':' && !WORD.test(before) && match(NAME, sql, i)) {
      const name = match(NAME, sql, i)!.slice(1);
      out += placeholder(dialect, numberFor(action, name, data, byName, params));
      i += name.length + 1;
      code = true;
    } else if (c === '?' && dialect === 'sqlite' && match(SQLITE_PARAM, sql, i)) {
      native = true;
      copyTo(i + match(SQLITE_PARAM, sql, i)!.length);
      code = true;
    } else if (c === '?' && (list || dialect === 'sqlite')) {
      if (!list)
        throw new PipitError(
          'INVALID_ARGUMENTS',
          `${action}: the statement has ? placeholders: give "data" as a list of their values (or use :name with "data" an object)`,
        );
      positional++;
      params.push(list[positional - 1]);
      out += placeholder(dialect, positional);
      i++;
      code = true;
    } else if (c === ';') {
      if (code) statements++;
      code = false;
      copyTo(i + 1);
    } else {
      if (!/\s/.test(c)) code = true;
      copyTo(i + 1);
    }
  }
  if (code) statements++;
  if (list && !(native && positional === 0 && byName.size === 0) && positional !== list.length)
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: "data" has ${list.length} value(s) but the statement has ${positional} ? placeholder(s)`,
    );
  return { sql: out, params: list && positional === 0 && native ? list : params, statements };
}

function numberFor(
  action: string,
  name: string,
  data: Data | undefined,
  byName: Map<string, number>,
  params: unknown[],
): number {
  const known = byName.get(name);
  if (known) return known;
  if (Array.isArray(data))
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: the statement uses :${name} but "data" is a list: give it as an object ({"${name}": ...}), or write ? placeholders (\\: for a literal colon)`,
    );
  if (!data || !Object.hasOwn(data, name))
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: the statement uses :${name} but "data" has no "${name}": add it (write \\: for a literal colon)`,
    );
  params.push(data[name]);
  byName.set(name, params.length);
  return params.length;
}

function match(re: RegExp, text: string, at: number): string | undefined {
  re.lastIndex = at;
  return re.exec(text)?.[0];
}

/** The index after a quoted string or name that starts at `start` (doubled quotes stay inside). */
function endOfQuoted(sql: string, start: number, quote: string, escapes: boolean): number {
  for (let i = start + 1; i < sql.length; i++) {
    if (escapes && sql[i] === '\\') i++;
    else if (sql[i] === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i++;
    }
  }
  return sql.length;
}

/** The index after a block comment; PostgreSQL's nest, SQLite's do not. */
function endOfComment(sql: string, start: number, nested: boolean): number {
  let depth = 0;
  for (let i = start; i < sql.length - 1; i++) {
    if (sql[i] === '/' && sql[i + 1] === '*' && (nested || depth === 0)) {
      depth++;
      i++;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return sql.length;
}
