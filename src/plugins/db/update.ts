import { defineAction, z } from '../api/index.ts';
import { updateStatements } from './build.ts';
import { engineParam, keyColumnsParam, recordsParam, tableParam } from './params.ts';
import type { DbState } from './params.ts';

/**
 * `db.update`: for each record, sets its other columns on the rows whose key columns equal its
 * own, in one transaction; answers the rows changed.
 *
 * @example
 * // {"action": "db.update", "args": {"table": "readings", "key_columns": ["id"], "records": [{"id": 1, "value": 21}]}}
 */
export const update = defineAction({
  name: 'update',
  summary: 'Updates records of a table, matched by their key columns; returns the rows changed.',
  description: 'All records or none (one transaction). Every record needs all of key_columns.',
  params: {
    table: tableParam,
    records: recordsParam,
    key_columns: keyColumnsParam
      .min(1)
      .describe('the columns that pick the row of each record (used in WHERE, not changed)'),
    engine: engineParam,
  },
  result: z.array(z.record(z.string(), z.unknown())).describe('the rows changed, as they are now'),
  run: async (
    { table, records, key_columns, engine },
    { state, signal }: { state: DbState; signal: AbortSignal },
  ) => {
    const action = 'db.update';
    const db = state.engines.get(action, engine);
    const statements = updateStatements(
      { action, dialect: db.dialect },
      table,
      records,
      key_columns,
    );
    return (await db.batch(action, statements, signal)).flat();
  },
});
