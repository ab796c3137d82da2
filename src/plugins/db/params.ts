import { secret, z } from '../api/index.ts';
import { EngineUrl } from './config.ts';
import type { Engines } from './engines.ts';
import { columnsOf, ColumnName, TableName } from './identifiers.ts';

/** What the plugin's actions share: the engines opened so far. */
export interface DbState {
  engines: Engines;
}

/** The `engine` argument every action takes: masked in the run history and the logs. */
export const engineParam = secret(
  EngineUrl.optional().describe(
    'engine URL for this call (sqlite:///path.db, postgresql://user:password@host/db); default: db.engine',
  ),
);

/** A table name: letters, digits and _, optionally schema-qualified (checked when used). */
export const tableParam = TableName.describe(
  'table name: letters, digits and _ (optionally schema.table); quoted as an identifier',
);

/** Rows to write or match, as column → value objects. */
export const recordsParam = z
  .array(columnsOf(z.json()))
  .max(10_000)
  .describe('records as a list of {column: value} objects; values are always bound, never SQL');

/** Values for a statement's placeholders. */
export const dataParam = z
  .union([z.record(z.string(), z.json()), z.array(z.json())])
  .optional()
  .describe(
    'values for the placeholders: an object for :name placeholders, or a list for ? placeholders',
  );

/** Key columns: the names that identify a row. */
export const keyColumnsParam = z.array(ColumnName);
