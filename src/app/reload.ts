import { isDeepStrictEqual } from 'node:util';
import { loadConfig } from '../config/load.ts';
import type { LoadedConfig } from '../config/load.ts';
import { PipitError, toPipitError } from '../core/errors.ts';
import type { UserConfigPort } from '../core/services.ts';
import { loadEnabledPlugins, pluginPackages } from '../plugins/catalog.ts';
import { refuseFileRootsOverPipit } from '../plugins/file/own-files.ts';
import type { Service } from './service.ts';
import { buildUserLayer, installUserLayer } from './user-layer.ts';

/** The outcome of a reload that was taken. */
export interface ReloadResult {
  reloaded: true;
  /** Loaded, but worth a look (e.g. an action of a plugin that is not enabled). */
  warnings: string[];
  /** Settings that changed in the file but only take effect after a restart. */
  restart_needed: string[];
}

let generation = 0;

// Settings the running process was built on: a new value is read, reported, and applied at the
// next start.
function restartNeeded(before: LoadedConfig, after: LoadedConfig): string[] {
  const changed: string[] = [];
  if (before.deviceId !== after.deviceId) changed.push('device_id');
  if (before.workdir !== after.workdir) changed.push('workdir');
  if (!isDeepStrictEqual(before.http, after.http)) changed.push('backend.http');
  if (before.redisUrl !== after.redisUrl || !isDeepStrictEqual(before.redis, after.redis))
    changed.push('redis');
  if (before.logFormat !== after.logFormat) changed.push('logging.format');
  const plugins = new Set([...before.plugins.keys(), ...after.plugins.keys()]);
  for (const name of [...plugins].sort()) {
    if (!isDeepStrictEqual(before.plugins.get(name)?.config, after.plugins.get(name)?.config))
      changed.push(name);
  }
  return changed;
}

// The configuration file as it is now (or with `files` read instead of the disk), checked as a
// reload checks it.
async function loadNext(
  service: Service,
  files?: ReadonlyMap<string, string>,
): Promise<LoadedConfig> {
  const next = loadConfig({
    path: service.config.path,
    // Packages are found again (a new `plugins:` list is checked, and applies at a restart).
    plugins: service.plugins.filter((def) => !def.from),
    packages: pluginPackages,
    ...(files ? { files } : {}),
  });
  // Sections of plugins that were off are checked too (their modules load for it).
  return (await loadEnabledPlugins(next, service.plugins)).config;
}

/**
 * Reloads the configuration file and the scripts of a running service (SIGHUP, Settings → Reload,
 * `POST /reload`): procedures, hooks, crons, scripts and the log level take effect at once. A new
 * configuration that does not load (bad YAML, a bad section, a misspelt action, a script that
 * throws) is refused with BAD_REQUEST naming the problem, and the running one stays as it was.
 * Settings the process was built on (the HTTP server, plugins, workdir) are reported in
 * `restart_needed`.
 *
 * @example
 * const { warnings, restart_needed } = await reloadService(service);
 */
export async function reloadService(service: Service): Promise<ReloadResult> {
  const before = service.config;
  let next: LoadedConfig;
  let layer;
  try {
    next = await loadNext(service);
    // A new scripts_dir applies now, new file.roots at the next start: both meet the running roots.
    refuseFileRootsOverPipit(next, [before]);
    layer = await buildUserLayer(next, service.services, {
      generation: ++generation,
      loadScripts: true,
      strictScripts: true,
    });
    installUserLayer(layer, {
      registry: service.registry,
      hooks: service.events.hooks,
      scheduler: service.scheduler,
    });
  } catch (err) {
    const error = toPipitError(err, 'CONFIG_INVALID');
    service.log.warn(
      { err },
      `reload refused, the running configuration is kept: ${error.message}`,
    );
    throw new PipitError(
      'BAD_REQUEST',
      `the new configuration was refused and the running one is kept: ${error.message}`,
      { cause: err },
    );
  }
  const restart = restartNeeded(before, next);
  service.config = {
    ...before,
    scriptsDir: next.scriptsDir,
    logLevel: next.logLevel,
    procedures: next.procedures,
    hooks: next.hooks,
    crons: next.crons,
  };
  service.scripts = layer.scripts;
  if (!process.env.PIPIT_LOG_LEVEL) service.log.level = next.logLevel;
  service.log.info(
    { warnings: layer.warnings, restart_needed: restart },
    `configuration reloaded: ${layer.procedures.length} procedures, ${layer.hooks.length} hooks, ${layer.crons.length} crons` +
      (restart.length ? `; restart to apply: ${restart.join(', ')}` : ''),
  );
  return { reloaded: true, warnings: layer.warnings, restart_needed: restart };
}

/**
 * The {@link UserConfigPort} of a service: its configuration file, a check of a change before it is
 * written (the same loader and checks as a reload, with the scripts already loaded), and a reload.
 *
 * @example
 * service.services.userConfig = userConfigPort(service);
 */
export function userConfigPort(service: Service): UserConfigPort {
  return {
    path: () => service.config.path,
    sections: () => [
      ...service.config.procedures,
      ...service.config.hooks,
      ...service.config.crons,
    ],
    async check(files) {
      const next = await loadNext(service, files);
      refuseFileRootsOverPipit(next, [service.config]);
      const layer = await buildUserLayer(next, service.services, {
        generation,
        loadScripts: false,
        scripts: service.scripts,
      });
      return layer.warnings;
    },
    reload: () => reloadService(service),
  };
}
