import { PipitError, secret, z } from '../api/index.ts';
import { parseEngineUrl } from './engine-url.ts';

/**
 * An engine URL checked where it is given (the config at start; a call's `engine` when called),
 * with a message that never repeats it (it may hold a password).
 */
export const EngineUrl = z
  .string()
  .min(1)
  .superRefine((url, ctx) => {
    try {
      parseEngineUrl(url);
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: err instanceof PipitError ? err.message : 'bad URL',
      });
    }
  });

/**
 * The `db:` section: Platypush's `engine`, and the limits of every call.
 *
 * @example
 * DbConfig.parse({ engine: 'sqlite:////var/lib/pipit/sensors.db' }).statement_timeout; // 30
 */
export const DbConfig = z.strictObject({
  engine: secret(
    EngineUrl.optional().describe(
      'the default engine URL: sqlite:///relative.db, sqlite:////absolute.db, sqlite:// (memory) or postgresql://user:password@host:port/db; a call may pass its own',
    ),
  ),
  connect_timeout: z
    .number()
    .positive()
    .max(300)
    .default(10)
    .describe('seconds to connect to PostgreSQL, or to wait for a free pooled connection'),
  statement_timeout: z
    .number()
    .positive()
    .max(3600)
    .default(30)
    .describe('seconds a PostgreSQL statement may run before it is cancelled (TIMEOUT)'),
  busy_timeout: z
    .number()
    .min(0)
    .max(30)
    .default(2)
    .describe(
      "seconds a SQLite statement waits for a database another process has locked (Pipit waits with it); an engine URL's ?timeout= overrides it",
    ),
  pool_size: z
    .number()
    .int()
    .min(1)
    .max(100)
    .default(5)
    .describe('connections per PostgreSQL engine URL (SQLAlchemy pool_size)'),
});
export type DbConfig = z.output<typeof DbConfig>;
