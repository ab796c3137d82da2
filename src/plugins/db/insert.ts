import { defineAction, PipitError, z } from '../api/index.ts';
import { insertStatements } from './build.ts';
import { engineParam, keyColumnsParam, recordsParam, tableParam } from './params.ts';
import type { DbState } from './params.ts';

// What PostgreSQL and SQLite say when ON CONFLICT names columns without a unique index.
const NO_UNIQUE = /no unique or exclusion constraint|does not match any PRIMARY KEY or UNIQUE/i;

/**
 * `db.insert`: inserts records in one transaction and answers the rows written (RETURNING *).
 * With `key_columns`, a record whose key exists is skipped, or updated with `on_duplicate_update`
 * (`INSERT ... ON CONFLICT (key_columns) DO UPDATE`).
 *
 * @example
 * // {"action": "db.insert", "args": {"table": "readings", "records": [{"name": "hall", "value": 20.5}]}}
 */
export const insert = defineAction({
  name: 'insert',
  summary: 'Inserts records (a list of objects) into a table; returns the rows written.',
  description:
    'All records or none (one transaction). With key_columns (the primary key or a unique index), existing rows are skipped, or updated with on_duplicate_update.',
  params: {
    table: tableParam,
    records: recordsParam,
    engine: engineParam,
    key_columns: keyColumnsParam
      .optional()
      .describe("the table's key columns (primary key or unique index) to detect existing rows"),
    on_duplicate_update: z
      .boolean()
      .default(false)
      .describe('update the rows whose key_columns already exist, instead of skipping them'),
  },
  result: z.array(z.record(z.string(), z.unknown())).describe('the rows inserted or updated'),
  run: async (
    { table, records, engine, key_columns, on_duplicate_update },
    { state, signal }: { state: DbState; signal: AbortSignal },
  ) => {
    const action = 'db.insert';
    if (on_duplicate_update && !key_columns?.length)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${action}: on_duplicate_update needs key_columns (the columns that identify a row)`,
      );
    const db = state.engines.get(action, engine);
    const statements = insertStatements(
      { action, dialect: db.dialect },
      table,
      records,
      key_columns ?? [],
      on_duplicate_update,
    );
    try {
      return (await db.batch(action, statements, signal)).flat();
    } catch (err) {
      if (err instanceof PipitError && NO_UNIQUE.test(err.message))
        throw new PipitError(
          err.code,
          `${err.message}: key_columns must be the table's primary key or have a unique index`,
          { cause: err },
        );
      throw err;
    }
  },
});
