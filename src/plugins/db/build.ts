import { PipitError } from '../api/index.ts';
import type { Statement } from './engine.ts';
import { quoteColumn, quoteTable } from './identifiers.ts';
import { placeholder } from './placeholders.ts';
import type { Dialect } from './placeholders.ts';

/** A record of column → value, as the actions take them. */
export type Values = Record<string, unknown>;

/**
 * Builds the SQL of the table actions: names checked and quoted as identifiers (identifiers.ts),
 * every value a bound parameter. `action` and the dialect come with each call.
 */
export interface Builder {
  action: string;
  dialect: Dialect;
}

/** `"a" = $1 AND "b" IS NULL`: equality on each column, NULL matched with IS NULL. */
function conditions(b: Builder, where: string, values: Values, params: unknown[]): string {
  return Object.entries(values)
    .map(([column, value]) => {
      const name = quoteColumn(b.action, where, column);
      if (value === null) return `${name} IS NULL`;
      params.push(value);
      return `${name} = ${placeholder(b.dialect, params.length)}`;
    })
    .join(' AND ');
}

/**
 * `SELECT * FROM "t" WHERE ...` for `db.select {table, filter}`.
 *
 * @example
 * selectStatement({ action: 'db.select', dialect: 'sqlite' }, 'readings', { room: 'hall' });
 * // { sql: 'SELECT * FROM "readings" WHERE "room" = ?1', params: ['hall'] }
 */
export function selectStatement(b: Builder, table: string, filter: Values = {}): Statement {
  const params: unknown[] = [];
  const where = conditions(b, 'filter', filter, params);
  return {
    sql: `SELECT * FROM ${quoteTable(b.action, table)}${where ? ` WHERE ${where}` : ''}`,
    params,
  };
}

/**
 * One `INSERT ... RETURNING *` per record; with `keyColumns`, `ON CONFLICT (keys) DO NOTHING`
 * (existing rows are left as they are), or `DO UPDATE SET` the other columns with `update`.
 *
 * @example
 * insertStatements(b, 'readings', [{ id: 1, value: 20.5 }], ['id'], true);
 */
export function insertStatements(
  b: Builder,
  table: string,
  records: Values[],
  keyColumns: string[],
  update: boolean,
): Statement[] {
  const into = quoteTable(b.action, table);
  const keys = keyColumns.map((k) => quoteColumn(b.action, 'key_columns', k));
  return records.map((record, i) => {
    const where = `records[${i}]`;
    const columns = Object.keys(record);
    const names = columns.map((c) => quoteColumn(b.action, where, c));
    requireKeys(b, where, record, keyColumns);
    const params = columns.map((c) => record[c]);
    const values = columns.length
      ? `(${names.join(', ')}) VALUES (${params.map((_, n) => placeholder(b.dialect, n + 1)).join(', ')})`
      : 'DEFAULT VALUES';
    const others = names.filter((_, n) => !keyColumns.includes(columns[n]!));
    const conflict = !keys.length
      ? ''
      : update && others.length
        ? ` ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${others.map((c) => `${c} = excluded.${c}`).join(', ')}`
        : ` ON CONFLICT (${keys.join(', ')}) DO NOTHING`;
    return { sql: `INSERT INTO ${into} ${values}${conflict} RETURNING *`, params };
  });
}

/**
 * One `UPDATE "t" SET <other columns> WHERE <key columns> RETURNING *` per record.
 *
 * @example
 * updateStatements(b, 'readings', [{ id: 1, value: 21 }], ['id']);
 */
export function updateStatements(
  b: Builder,
  table: string,
  records: Values[],
  keyColumns: string[],
): Statement[] {
  const target = quoteTable(b.action, table);
  for (const k of keyColumns) quoteColumn(b.action, 'key_columns', k);
  return records.map((record, i) => {
    const where = `records[${i}]`;
    requireKeys(b, where, record, keyColumns);
    const params: unknown[] = [];
    const set = Object.entries(record)
      .filter(([column]) => !keyColumns.includes(column))
      .map(([column, value]) => {
        params.push(value);
        return `${quoteColumn(b.action, where, column)} = ${placeholder(b.dialect, params.length)}`;
      });
    if (!set.length)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${b.action}: ${where} has only key columns (${keyColumns.join(', ')}): add the columns to change`,
      );
    const key = Object.fromEntries(keyColumns.map((k) => [k, record[k]]));
    const cond = conditions(b, where, key, params);
    return { sql: `UPDATE ${target} SET ${set.join(', ')} WHERE ${cond} RETURNING *`, params };
  });
}

/**
 * One `DELETE FROM "t" WHERE <every column of the record>` per record. An empty record is refused:
 * it would delete every row.
 *
 * @example
 * deleteStatements(b, 'readings', [{ id: 1 }]);
 */
export function deleteStatements(b: Builder, table: string, records: Values[]): Statement[] {
  const target = quoteTable(b.action, table);
  return records.map((record, i) => {
    if (!Object.keys(record).length)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${b.action}: records[${i}] is empty, which would delete every row: give the column values that pick the rows (db.execute "DELETE FROM ${table}" empties a table)`,
      );
    const params: unknown[] = [];
    const cond = conditions(b, `records[${i}]`, record, params);
    return { sql: `DELETE FROM ${target} WHERE ${cond}`, params };
  });
}

function requireKeys(b: Builder, where: string, record: Values, keyColumns: string[]): void {
  const missing = keyColumns.filter((k) => !Object.hasOwn(record, k));
  if (missing.length)
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${b.action}: ${where} has no value for the key column(s) ${missing.map((m) => `"${m}"`).join(', ')}: every record needs all of key_columns`,
    );
}
