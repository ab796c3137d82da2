import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventKinds } from '../events/kinds.ts';
import type { LoadedConfig } from '../config/load.ts';
import { compileActions, Registry } from '../core/registry.ts';
import type { PluginDef } from '../core/action.ts';
import { isPipitError, PipitError } from '../core/errors.ts';
import type { ProcedureEntry } from '../core/registry.ts';
import type { Services } from '../core/services.ts';
import { didYouMean } from '../lib/suggest.ts';
import { cronFromConfig } from '../cron/from-config.ts';
import { Scheduler } from '../cron/scheduler.ts';
import type { CronJobDef } from '../cron/scheduler.ts';
import { hookFromConfig } from '../events/from-config.ts';
import type { Hook, Hooks } from '../events/hooks.ts';
import {
  isUnprovidedPlatypushPlugin,
  missingPluginHint,
  pluginOfAction,
} from '../core/platypush-plugins.ts';
import { procedureFromConfig } from '../procedures/from-config.ts';
import { loadScripts } from '../scripts/loader.ts';
import type { LoadedScripts } from '../scripts/loader.ts';

/**
 * What a user defines, as opposed to what Pipit ships: procedures, hooks and crons from the YAML
 * configuration and the scripts folder. Built whole, checked, then installed in one step, so that a
 * reload either takes all of a new configuration or none of it.
 */
export interface UserLayer {
  procedures: ProcedureEntry[];
  hooks: Hook[];
  crons: CronJobDef[];
  scripts: LoadedScripts;
  /** Things that load but deserve a look (an action of a plugin that is not enabled). */
  warnings: string[];
}

function unique<T extends { name: string; source: string }>(items: T[], what: string): void {
  const seen = new Map<string, string>();
  for (const item of items) {
    const before = seen.get(item.name);
    if (before !== undefined)
      throw new PipitError(
        'CONFIG_INVALID',
        `${item.source}: a ${what} named "${item.name}" is already defined in ${before}`,
      );
    seen.set(item.name, item.source);
  }
}

// The plugin a failing call names when Pipit does not have it at all (light.hue for light.hue.on),
// or null when the call names a plugin Pipit has (then the action is misspelt).
function missingPlugin(action: string, registry: Registry): string | null {
  const named = pluginOfAction(action);
  if (registry.knownPlugin(named)) return null;
  if (isUnprovidedPlatypushPlugin(named)) return named;
  const parts = action.split('.');
  for (let i = 1; i < parts.length; i++)
    if (registry.knownPlugin(parts.slice(0, i).join('.'))) return null;
  return named;
}

// Every action a YAML procedure, hook or cron calls is checked when it loads, and every problem is
// reported at once. A misspelt action of a plugin Pipit has is refused with a "did you mean"; a
// plugin Pipit does not have (a Platypush one: light.hue, music.mpd) only warns, so that a migrated
// configuration starts and the step fails when it runs; so does a plugin that is not enabled.
function checkCalls(layer: UserLayer, registry: Registry): void {
  const procedures = new Set(layer.procedures.map((p) => p.name));
  const owners = [
    ...layer.procedures.map((p) => ({ source: p.source, calls: p.calls })),
    ...layer.hooks.map((h) => ({ source: h.source, calls: h.calls })),
    ...layer.crons.map((c) => ({ source: c.source, calls: c.calls })),
  ];
  const errors: string[] = [];
  for (const { source, calls } of owners) {
    for (const { action, path } of calls ?? []) {
      if (action.startsWith('procedure.')) {
        const name = action.slice('procedure.'.length);
        if (!procedures.has(name))
          errors.push(
            `${source}: ${path}: no procedure named "${name}"${didYouMean(name, procedures)}`,
          );
        continue;
      }
      try {
        registry.resolve(action);
      } catch (err) {
        if (!isPipitError(err, 'NOT_FOUND')) throw err;
        if (/is not enabled/.test(err.message)) {
          layer.warnings.push(`${source}: ${path}: ${err.message}`);
          continue;
        }
        const plugin = missingPlugin(action, registry);
        if (plugin !== null) {
          layer.warnings.push(
            `${source}: plugin "${plugin}" is not installed: ${path} (${action}) will fail when it runs${missingPluginHint(plugin, registry.plugins.keys())}`,
          );
          continue;
        }
        errors.push(`${source}: ${path}: ${err.message}`);
      }
    }
  }
  if (errors.length) throw new PipitError('CONFIG_INVALID', errors.join('\n'));
}

// Every listener of a web hook runs; the caller gets one answer (the first explicit one, else the
// first value returned, in load order: YAML hooks, then scripts). Two listeners on one web hook are
// usually one too many (a copy, a leftover): said at load, naming both.
function sharedWebhookWarnings(hooks: readonly Hook[]): string[] {
  const byWebhook = new Map<string, Hook[]>();
  for (const hook of hooks)
    if (hook.webhook !== undefined)
      byWebhook.set(hook.webhook, [...(byWebhook.get(hook.webhook) ?? []), hook]);
  return [...byWebhook]
    .filter(([, listeners]) => listeners.length > 1)
    .map(
      ([name, listeners]) =>
        `web hook "${name}" has ${listeners.length} listeners (${listeners.map((h) => `${h.name} in ${h.source}`).join(', ')}): all of them run, and the caller gets the first explicit answer (hook.send_response, sendResponse), else the first value returned, in load order (YAML hooks, then scripts)`,
    );
}

/**
 * Builds and checks the user layer of a configuration: YAML sections first, then the scripts.
 * CONFIG_INVALID names the file and the problem (a bad section, a duplicate name, a misspelt
 * action). With `strictScripts` (a reload), a script that fails to load refuses the whole layer;
 * at start it is reported and the rest goes on.
 *
 * @example
 * const layer = await buildUserLayer(config, services, { generation: 0, loadScripts: true });
 */
export async function buildUserLayer(
  config: LoadedConfig,
  services: Services,
  opts: {
    generation: number;
    loadScripts: boolean;
    strictScripts?: boolean;
    /** Scripts already loaded, used instead of loading them again (a change being checked). */
    scripts?: LoadedScripts;
  },
): Promise<UserLayer> {
  const get = () => services;
  const scripts = opts.scripts
    ? { ...opts.scripts, failed: [...opts.scripts.failed] }
    : opts.loadScripts
      ? await loadScripts(config.scriptsDir, services, opts.generation)
      : { files: [], failed: [], procedures: [], hooks: [], crons: [] };
  // A script's cron with a bad expression is that script's failure, like a script that throws.
  scripts.crons = scripts.crons.filter((job) => {
    try {
      Scheduler.validate(job);
      return true;
    } catch (err) {
      scripts.failed.push({ file: job.source, error: (err as Error).message });
      services.log.error({ err }, (err as Error).message);
      return false;
    }
  });
  if (opts.strictScripts && scripts.failed.length) {
    const first = scripts.failed[0]!;
    throw new PipitError('CONFIG_INVALID', `script ${first.file} failed to load: ${first.error}`);
  }
  const layer: UserLayer = {
    procedures: [
      ...config.procedures.map((s) => procedureFromConfig(s, get)),
      ...scripts.procedures,
    ],
    hooks: [...config.hooks.map((s) => hookFromConfig(s, get)), ...scripts.hooks],
    crons: [...config.crons.map((s) => cronFromConfig(s, get)), ...scripts.crons],
    scripts,
    warnings: [],
  };
  unique(layer.procedures, 'procedure');
  unique(layer.hooks, 'hook');
  unique(layer.crons, 'cron job');
  checkCalls(layer, services.registry);
  layer.warnings.push(...sharedWebhookWarnings(layer.hooks));
  layer.warnings.push(...pythonScriptWarnings(config.scriptsDir));
  return layer;
}

/** One warning per Python script in the scripts folder: Pipit runs .ts, .js and .mjs only. */
export function pythonScriptWarnings(scriptsDir: string): string[] {
  if (!existsSync(scriptsDir)) return [];
  return readdirSync(scriptsDir)
    .filter((f) => f.endsWith('.py'))
    .sort()
    .map(
      (f) =>
        `${join(scriptsDir, f)}: a Python script, which Pipit does not run: rewrite it as a .ts or .js script with procedure(name, fn), hook(EventKind, filter, fn) or cron(expression, fn) from 'pipit'`,
    );
}

/**
 * Checks a configuration without starting anything (`pipit config check`): the file itself (by
 * loading it), every YAML procedure, hook and cron with the actions they call, and the scripts
 * folder. Throws CONFIG_INVALID on an error; returns the warnings (Platypush keys ignored, plugins
 * Pipit does not have, Python scripts, actions of plugins that are not enabled).
 *
 * @example
 * for (const warning of checkConfiguration(config, builtinPlugins)) console.log(warning);
 */
export function checkConfiguration(config: LoadedConfig, plugins: readonly PluginDef[]): string[] {
  const registry = new Registry(plugins);
  for (const def of plugins) {
    const section = config.plugins.get(def.name);
    if (section)
      registry.addPlugin({
        def,
        config: section.config,
        state: undefined,
        actions: compileActions(def),
      });
  }
  // YAML sections are only compiled here, never run: the services they would call are not needed,
  // only the event kinds every plugin declares, enabled or not.
  const kinds = new EventKinds();
  for (const def of plugins) for (const kind of def.eventKinds ?? []) kinds.declare(kind);
  const services = { registry, events: { kinds } } as unknown as Services;
  const get = () => services;
  const layer: UserLayer = {
    procedures: config.procedures.map((s) => procedureFromConfig(s, get)),
    hooks: config.hooks.map((s) => hookFromConfig(s, get)),
    crons: config.crons.map((s) => cronFromConfig(s, get)),
    scripts: { files: [], failed: [], procedures: [], hooks: [], crons: [] },
    warnings: [],
  };
  unique(layer.procedures, 'procedure');
  unique(layer.hooks, 'hook');
  unique(layer.crons, 'cron job');
  for (const job of layer.crons) Scheduler.validate(job);
  checkCalls(layer, registry);
  layer.warnings.push(...sharedWebhookWarnings(layer.hooks));
  return [...config.warnings, ...layer.warnings, ...pythonScriptWarnings(config.scriptsDir)];
}

/**
 * Installs a checked user layer, replacing the previous one: new calls, events and schedules use it
 * at once; runs already started finish with the old. The cron schedule is validated before anything
 * is replaced.
 *
 * @example
 * installUserLayer(layer, { registry, hooks: events.hooks, scheduler });
 */
export function installUserLayer(
  layer: UserLayer,
  into: { registry: Registry; hooks: Hooks; scheduler: Scheduler },
): void {
  into.scheduler.replaceAll(layer.crons);
  into.registry.replaceProcedures(layer.procedures);
  into.hooks.replaceAll(layer.hooks);
}
