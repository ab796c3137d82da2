import { defineAction, PipitError, z } from '../api/index.ts';
import { selectStatement } from './build.ts';
import { columnsOf } from './identifiers.ts';
import { dataParam, engineParam, tableParam } from './params.ts';
import type { DbState } from './params.ts';
import { bindData } from './placeholders.ts';

/**
 * `db.select`: rows as a list of objects, from the caller's own SQL (`query`, with `data` bound to
 * its placeholders) or from a table and an equality filter.
 *
 * @example
 * // {"action": "db.select", "args": {"query": "SELECT * FROM readings WHERE room = :room", "data": {"room": "hall"}}}
 * // {"action": "db.select", "args": {"table": "readings", "filter": {"room": "hall"}}}
 */
export const select = defineAction({
  name: 'select',
  summary: 'Returns rows (as a list of objects) of a query, or of a table with a filter.',
  description:
    'Give either "query" (your SQL; values go in "data", bound to :name or ? placeholders) or "table" with an optional "filter" ({column: value}, all equal; null matches NULL).',
  params: {
    query: z
      .string()
      .min(1)
      .optional()
      .describe('SQL that returns rows, e.g. SELECT * FROM readings WHERE room = :room'),
    table: tableParam.optional(),
    filter: columnsOf(z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .optional()
      .describe('with table: {column: value} rows must equal (all of them); null matches NULL'),
    engine: engineParam,
    data: dataParam,
  },
  result: z.array(z.record(z.string(), z.unknown())).describe('the rows, as {column: value}'),
  run: async (
    { query, table, filter, engine, data },
    { state, signal }: { state: DbState; signal: AbortSignal },
  ) => {
    const action = 'db.select';
    if ((query === undefined) === (table === undefined))
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${action}: give either "query" (SQL) or "table" (with "filter"), ${query ? 'not both' : 'one of them'}`,
      );
    if (query !== undefined && filter)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${action}: "filter" goes with "table"; with "query", write the condition in the SQL and its values in "data"`,
      );
    if (table !== undefined && data)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${action}: "data" goes with "query"; with "table", give the values in "filter"`,
      );
    const db = state.engines.get(action, engine);
    if (table !== undefined)
      return db.query(
        action,
        selectStatement({ action, dialect: db.dialect }, table, filter),
        signal,
      );
    const bound = bindData(action, query!, data, db.dialect);
    if (bound.statements > 1)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${action}: "query" holds ${bound.statements} statements: give one (db.execute runs scripts)`,
      );
    return db.query(action, bound, signal);
  },
});
