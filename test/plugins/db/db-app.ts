import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createService } from '../../../src/app/service.ts';
import { loadConfig } from '../../../src/config/load.ts';
import { createLogger } from '../../../src/core/logger.ts';
import type { Logger } from '../../../src/core/logger.ts';
import { buildHttpApp } from '../../../src/http/server.ts';
import db from '../../../src/plugins/db/plugin.ts';
import { builtinPlugins } from '../../../src/plugins/index.ts';
import { tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

/**
 * A service with the db plugin and a `db:` section (`yaml` is appended to the config; `db:` must
 * be in it), on a fresh workdir; `close()` stops it (closing the plugin's pools) and removes the
 * workdir.
 *
 * @example
 * const t = await dbApp(`db:\n  engine: sqlite:///${file}\n`);
 */
export async function dbApp(yaml: string, opts: { log?: Logger } = {}): Promise<TestApp> {
  const { dir, cleanup } = tempDir('pipit-db-');
  const configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    `device_id: test-host\nworkdir: ./data\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n${yaml}`,
  );
  const plugins = builtinPlugins.some((p) => p.name === 'db')
    ? builtinPlugins
    : [...builtinPlugins, db];
  const config = loadConfig({ path: configPath, plugins });
  const service = await createService(config, {
    plugins,
    log: opts.log ?? createLogger({ level: 'silent' }),
  });
  const app = await buildHttpApp(service);
  await app.ready();
  return {
    service,
    app,
    dir,
    configPath,
    async close() {
      await app.close();
      await service.close();
      cleanup();
    },
  };
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
