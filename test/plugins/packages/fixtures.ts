// Plugin packages written into a temporary config folder, as a user installs them.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.ts';
import { createService } from '../../../src/app/service.ts';
import type { Service } from '../../../src/app/service.ts';
import { pluginCatalog, pluginPackages } from '../../../src/plugins/catalog.ts';
import { createLogger } from '../../../src/core/logger.ts';
import type { Logger } from '../../../src/core/logger.ts';

/** The example package of the repository (examples/pipit-plugin-hello). */
export const HELLO = join(import.meta.dirname, '../../../examples/pipit-plugin-hello');

/**
 * Copies the example package to `<dir>/<into>` (default: `node_modules/pipit-plugin-hello`).
 *
 * @example
 * installHello(dir); // enabled as "plugins: [pipit-plugin-hello]"
 */
export function installHello(dir: string, into = 'node_modules/pipit-plugin-hello'): string {
  const target = join(dir, into);
  cpSync(HELLO, target, { recursive: true });
  return target;
}

/**
 * Writes a package `<dir>/node_modules/<name>` with this package.json (merged over a plugin
 * package's defaults) and index.js text.
 *
 * @example
 * writePackage(dir, 'pipit-plugin-boom', { index: "throw new Error('boom')" });
 */
export function writePackage(
  dir: string,
  name: string,
  opts: { index: string; packageJson?: Record<string, unknown> },
): string {
  const target = join(dir, 'node_modules', name);
  mkdirSync(target, { recursive: true });
  writeFileSync(
    join(target, 'package.json'),
    JSON.stringify({
      name,
      version: '2.3.4',
      type: 'module',
      main: 'index.js',
      keywords: ['pipit-plugin'],
      peerDependencies: { pipit: '>=0.1.0' },
      ...opts.packageJson,
    }),
  );
  writeFileSync(join(target, 'index.js'), opts.index);
  return target;
}

/**
 * Loads `<dir>/config.yaml` (core keys added) as `pipit start` does, packages included, and
 * builds the service.
 *
 * @example
 * const service = await startService(dir, 'plugins: [pipit-plugin-hello]', log);
 */
export async function startService(dir: string, yaml: string, log?: Logger): Promise<Service> {
  const path = join(dir, 'config.yaml');
  writeFileSync(path, `device_id: t\nworkdir: ./data\nscripts_dir: ./scripts\n${yaml}\n`);
  const config = loadConfig({ path, plugins: pluginCatalog, packages: pluginPackages });
  return createService(config, { log: log ?? createLogger({ level: 'silent' }), metrics: false });
}
