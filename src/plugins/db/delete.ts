import { defineAction } from '../api/index.ts';
import { deleteStatements } from './build.ts';
import { engineParam, recordsParam, tableParam } from './params.ts';
import type { DbState } from './params.ts';

/**
 * `db.delete`: deletes the rows that match each record (every column equal), in one transaction;
 * answers nothing, as Platypush does.
 *
 * @example
 * // {"action": "db.delete", "args": {"table": "readings", "records": [{"id": 1}, {"id": 2}]}}
 */
export const remove = defineAction({
  name: 'delete',
  summary: 'Deletes the rows matching each record (all its columns equal).',
  description: 'All records or none (one transaction). An empty record is refused.',
  params: {
    table: tableParam,
    records: recordsParam,
    engine: engineParam,
  },
  run: async (
    { table, records, engine },
    { state, signal }: { state: DbState; signal: AbortSignal },
  ): Promise<void> => {
    const action = 'db.delete';
    const db = state.engines.get(action, engine);
    await db.batch(
      action,
      deleteStatements({ action, dialect: db.dialect }, table, records),
      signal,
    );
  },
});
