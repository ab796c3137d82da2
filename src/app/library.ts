import { loadConfig } from '../config/load.ts';
import type { LoadedConfig } from '../config/load.ts';
import { findConfig } from '../config/paths.ts';
import { createLogger } from '../core/logger.ts';
import { outputOrThrow } from '../core/run-output.ts';
import { pluginCatalog, pluginPackages } from '../plugins/catalog.ts';
import { createService } from './service.ts';
import type { Service } from './service.ts';
import { attachedService } from '../scripts/attached.ts';
import type { AttachedService } from '../scripts/attached.ts';

let configPath: string | null | undefined;
let current: Promise<Service> | undefined;

/**
 * The configuration used by {@link run}. `Config.init(path)` is optional; without it the default
 * search order applies (and, when no file exists, the embedded defaults, without HTTP).
 *
 * @example
 * Config.init('/etc/pipit/config.yaml');
 * await run('utils.echo', { text: 'hi' });
 */
export const Config = {
  /** Chooses the configuration file for later `run()` calls (re-initialising if one was loaded). */
  init(path?: string): LoadedConfig {
    const resolved = findConfig({ explicit: path });
    const config = loadConfig({
      path: resolved,
      plugins: pluginCatalog,
      packages: pluginPackages,
    });
    configPath = resolved;
    const previous = current;
    current = undefined;
    void previous?.then((s) => s.close());
    return config;
  },
};

function service(): Promise<AttachedService> {
  const attached = attachedService();
  if (attached) return Promise.resolve(attached);
  current ??= (async () => {
    const path = configPath === undefined ? findConfig({}) : configPath;
    const config = loadConfig({ path, plugins: pluginCatalog, packages: pluginPackages });
    return createService(config, {
      log: createLogger({ level: process.env.PIPIT_LOG_LEVEL ?? 'warn' }),
    });
  })();
  return current;
}

/**
 * Runs an action or procedure in-process and returns its output. Throws a PipitError with the
 * call's own code (NOT_FOUND, INVALID_ARGUMENTS, ACTION_FAILED...) whose `details.errors` holds the
 * response's `errors` (the same rule as `services.run`). With `target`, another instance of the
 * cluster runs it (from a script of a running instance: a standalone `run()` joins no cluster).
 *
 * @example
 * import { run } from 'pipit';
 * const out = await run('utils.echo', { text: 'hi' }); // { text: 'hi' }
 * await run('music.spotify.pause', {}, { target: 'living-room' });
 */
export async function run(
  action: string,
  args: Record<string, unknown> = {},
  opts: { target?: string } = {},
): Promise<unknown> {
  const svc = await service();
  return outputOrThrow(
    await svc.execute(
      {
        type: 'request',
        action,
        args,
        ...(opts.target === undefined ? {} : { target: opts.target }),
      },
      { transport: 'library' },
    ),
  );
}

/**
 * Closes the in-process service `run()` opened (database, plugins), so a script can exit promptly.
 *
 * @example
 * await run('variable.set', { x: 1 });
 * await shutdown();
 */
export async function shutdown(): Promise<void> {
  const pending = current;
  current = undefined;
  if (pending) await (await pending).close();
}
