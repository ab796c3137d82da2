import { defineAction, PipitError, z } from '../api/index.ts';
import { dataParam, engineParam } from './params.ts';
import type { DbState } from './params.ts';
import { bindData } from './placeholders.ts';

/**
 * `db.execute`: runs the caller's SQL and answers nothing, as Platypush does. Without `data` it
 * may be a script of `;`-separated statements; with `data`, one statement.
 *
 * @example
 * // {"action": "db.execute", "args": {"statement": "CREATE TABLE readings (id INTEGER PRIMARY KEY, value REAL)"}}
 */
export const execute = defineAction({
  name: 'execute',
  summary: 'Runs a SQL statement (or a script without values) and returns nothing.',
  description:
    'For CREATE TABLE, DROP, maintenance. Values go in "data", bound to :name or ? placeholders. db.select returns rows; db.insert/update/delete are safer for records.',
  params: {
    statement: z.string().min(1).describe('the SQL to run'),
    engine: engineParam,
    data: dataParam,
  },
  run: async (
    { statement, engine, data },
    { state, signal }: { state: DbState; signal: AbortSignal },
  ): Promise<void> => {
    const action = 'db.execute';
    const db = state.engines.get(action, engine);
    const bound = bindData(action, statement, data, db.dialect);
    if (data === undefined && bound.params.length === 0 && bound.statements > 1)
      return db.script(action, statement, signal);
    if (bound.statements > 1)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${action}: "statement" holds ${bound.statements} statements and "data": with values, run one statement per call`,
      );
    await db.query(action, bound, signal);
  },
});
