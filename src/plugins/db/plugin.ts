// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import { DbConfig } from './config.ts';
import { remove } from './delete.ts';
import { Engines } from './engines.ts';
import { plainError } from './errors.ts';
import { execute } from './execute.ts';
import { head } from './head.ts';
import { insert } from './insert.ts';
import type { DbState } from './params.ts';
import { select } from './select.ts';
import { update } from './update.ts';

/**
 * Platypush's `db` plugin: select, insert, update, delete and execute on SQLite (node:sqlite) and
 * PostgreSQL (`pg`) databases named by SQLAlchemy-style engine URLs. Names are checked and quoted
 * as identifiers; values are always bound parameters.
 *
 * @example
 * // config.yaml
 * // db:
 * //   engine: sqlite:////var/lib/pipit/sensors.db
 */
export default definePlugin<DbConfig, DbState>({
  ...head,
  summary: 'SQL databases (SQLite, PostgreSQL): select, insert, update, delete, execute.',
  config: DbConfig,
  actions: [select, insert, update, remove, execute],
  init: ({ config, log }) => ({
    engines: new Engines(
      config.engine,
      {
        connectTimeout: config.connect_timeout,
        statementTimeout: config.statement_timeout,
        busyTimeout: config.busy_timeout,
        poolSize: config.pool_size,
      },
      (err, label) =>
        log.warn({ err: plainError(err) }, `db: connection to ${label} lost while idle`),
    ),
  }),
  stop: (state) => state.engines.close(),
});
