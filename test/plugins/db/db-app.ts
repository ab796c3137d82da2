import type { Logger } from '../../../src/core/logger.ts';
import { makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

/**
 * A service with a `db:` section (`yaml` is appended to the config and must hold it), loaded
 * through the plugin catalog as `pipit start` loads it; `close()` stops it (closing the plugin's
 * pools and files) and removes its workdir (also when the configuration is refused).
 *
 * @example
 * const t = await dbApp(`db:\n  engine: sqlite:///${file}\n`);
 */
export async function dbApp(yaml: string, opts: { log?: Logger } = {}): Promise<TestApp> {
  // Our own workdir, so that a configuration refused at start leaves nothing behind either.
  const { dir, cleanup } = tempDir('pipit-db-');
  try {
    const t = await makeApp(yaml, { dir, ...(opts.log ? { log: opts.log } : {}) });
    return {
      ...t,
      async close() {
        await t.close();
        cleanup();
      },
    };
  } catch (err) {
    cleanup();
    throw err;
  }
}

/**
 * Calls a db action and returns its output, failing the test with the action's error otherwise.
 *
 * @example
 * const rows = await ok(t, 'db.select', { table: 'readings' });
 */
export async function ok(
  t: TestApp,
  action: string,
  args: Record<string, unknown> = {},
): Promise<unknown> {
  const res = await call(t, action, args);
  if (res.code) throw new Error(`${action} failed (${res.code}): ${res.errors.join('; ')}`);
  return res.output;
}
