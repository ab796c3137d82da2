import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { PluginDef } from '../../core/action.ts';
import { pipitVersion } from '../../lib/version.ts';
import { installPipitResolver } from '../../scripts/pipit-resolver.ts';
import { findPackages } from './discover.ts';
import type { FoundPackage } from './discover.ts';

/**
 * A plugin package as a stand-in for the config loader: its name and an accepting schema, and a
 * `load` that imports it. A package that throws at import, or whose default export is not a
 * plugin, loads as a failed plugin (its calls answer 503 saying why) rather than stopping Pipit.
 *
 * @example
 * const [hello] = packageStandIns(['pipit-plugin-hello'], '/etc/pipit', ['utils']);
 * const def = (await hello.load()).default;
 */
export function packageStandIns(
  specs: readonly string[],
  configDir: string,
  builtinNames: readonly string[],
): { def: PluginDef; load: () => Promise<{ default: PluginDef }> }[] {
  return findPackages(specs, configDir, pipitVersion(), builtinNames).map((found) => ({
    def: {
      name: found.pluginName,
      summary: '',
      // Listing a package in `plugins:` enables it; its section, if any, is checked once loaded.
      enabledByDefault: true,
      from: fromOf(found),
      actions: [],
    },
    load: () => importPlugin(found),
  }));
}

function fromOf(found: FoundPackage): NonNullable<PluginDef['from']> {
  return { package: found.packageName, version: found.version, path: found.dir };
}

async function importPlugin(found: FoundPackage): Promise<{ default: PluginDef }> {
  let exported: unknown;
  installPipitResolver();
  try {
    exported = ((await import(pathToFileURL(found.entry).href)) as { default?: unknown }).default;
  } catch (err) {
    return { default: failed(found, `it threw when imported: ${(err as Error)?.message ?? err}`) };
  }
  if (!isPlugin(exported))
    return {
      default: failed(
        found,
        `its default export is not a plugin: write "export default definePlugin({...})" with definePlugin from 'pipit'`,
      ),
    };
  if (exported.name !== found.pluginName)
    return {
      default: failed(
        found,
        `it defines a plugin named "${exported.name}", and its package.json names it "${found.pluginName}": make them agree ("pipit": {"plugin": "${exported.name}"} in package.json)`,
      ),
    };
  return { default: { ...exported, from: fromOf(found) } };
}

function isPlugin(value: unknown): value is PluginDef {
  const v = value as Partial<PluginDef> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    typeof v.summary === 'string' &&
    Array.isArray(v.actions)
  );
}

function failed(found: FoundPackage, reason: string): PluginDef {
  return {
    name: found.pluginName,
    summary: `failed to start: ${reason}`,
    // Its section cannot be checked without its schema: it is kept as written.
    config: z.unknown(),
    from: fromOf(found),
    failed: reason,
    actions: [],
  };
}
