import { PipitError, z } from '../api/index.ts';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TABLE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;
const HOW = 'letters, digits and _, not starting with a digit';

const tableMessage = (table: unknown) =>
  `table ${JSON.stringify(table)} is not a table name: use ${HOW} (optionally schema.table)`;
const columnMessage = (column: unknown) =>
  `column ${JSON.stringify(column)} is not a column name: use ${HOW}`;

/**
 * A table name, checked where the arguments are (INVALID_ARGUMENTS naming it, before anything
 * runs): `readings` or `public.readings`, never SQL such as `x; DROP TABLE t`.
 *
 * @example
 * TableName.parse('public.readings');
 */
export const TableName = z.string().regex(TABLE, { error: (iss) => tableMessage(iss.input) });

/** A column name, checked like {@link TableName} (no schema part). */
export const ColumnName = z.string().regex(NAME, { error: (iss) => columnMessage(iss.input) });

/**
 * An object keyed by column names (a record, a filter), whose bad keys are named in the message.
 *
 * @example
 * columnsOf(z.json()).parse({ room: 'hall' });
 */
export function columnsOf<V extends z.ZodType>(values: V) {
  return z.record(ColumnName, values, {
    error: (iss) => (iss.code === 'invalid_key' ? columnMessage(iss.input) : undefined),
  });
}

/**
 * A table name checked again and quoted as an identifier: `readings` → `"readings"`,
 * `public.readings` → `"public"."readings"`. The actions' arguments are checked already; this
 * keeps the SQL builders safe on their own.
 *
 * @example
 * quoteTable('db.insert', 'public.readings'); // '"public"."readings"'
 */
export function quoteTable(action: string, table: string): string {
  if (!TABLE.test(table))
    throw new PipitError('INVALID_ARGUMENTS', `${action}: ${tableMessage(table)}`);
  return table
    .split('.')
    .map((p) => `"${p}"`)
    .join('.');
}

/**
 * A column name checked again and quoted as an identifier; `where` says where it came from
 * (`records[2]`, `filter`, `key_columns`).
 *
 * @example
 * quoteColumn('db.select', 'filter', 'room'); // '"room"'
 */
export function quoteColumn(action: string, where: string, column: string): string {
  if (!NAME.test(column))
    throw new PipitError('INVALID_ARGUMENTS', `${action}: ${columnMessage(column)} (in ${where})`);
  return `"${column}"`;
}
