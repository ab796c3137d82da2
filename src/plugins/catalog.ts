import { z } from 'zod';
import { parsePluginSection } from '../config/load.ts';
import type { LoadedConfig } from '../config/load.ts';
import type { PluginDef } from '../core/action.ts';
import { FILE_DISABLED_HINT, SHELL_DISABLED_HINT } from './hints.ts';
import { HOMEASSISTANT_DISABLED_HINT } from './homeassistant/hint.ts';
import { packageStandIns } from './packages/stand-ins.ts';

// Every plugin Pipit ships, by name, each module loaded only when a configuration enables it:
// importing all of them (index.ts) costs a one-off `pipit run` or a start-up the modules, schemas
// and dependencies of plugins that are off (Spotify, file and shell are off by default).
// The names, aliases, defaults and hints here must match the plugins' own (catalog.test.ts).

interface CatalogEntry {
  name: string;
  aliases?: string[];
  enabledByDefault?: boolean;
  disabledHint?: string;
  load: () => Promise<{ default: PluginDef }>;
}

const ENTRIES: readonly CatalogEntry[] = [
  { name: 'utils', enabledByDefault: true, load: () => import('./utils.ts') },
  { name: 'logger', enabledByDefault: true, load: () => import('./logger.ts') },
  { name: 'variable', enabledByDefault: true, load: () => import('./variable.ts') },
  { name: 'inspect', enabledByDefault: true, load: () => import('./inspect.ts') },
  { name: 'event', enabledByDefault: true, load: () => import('./event.ts') },
  { name: 'runs', enabledByDefault: true, load: () => import('./runs/plugin.ts') },
  {
    name: 'automations',
    enabledByDefault: true,
    load: () => import('./automations/plugin.ts'),
  },
  {
    name: 'music.spotify',
    aliases: ['music.streaming'],
    load: () => import('./music/spotify/plugin.ts'),
  },
  {
    name: 'shell',
    disabledHint: SHELL_DISABLED_HINT,
    load: () => import('./shell/plugin.ts'),
  },
  { name: 'file', disabledHint: FILE_DISABLED_HINT, load: () => import('./file/plugin.ts') },
  {
    name: 'http',
    aliases: ['http.request'],
    enabledByDefault: true,
    load: () => import('./http/plugin.ts'),
  },
  { name: 'mqtt', enabledByDefault: true, load: () => import('./mqtt/plugin.ts') },
  {
    name: 'zigbee.mqtt',
    disabledHint: 'it needs a broker: add a "zigbee.mqtt:" section with at least "host"',
    load: () => import('./zigbee-mqtt/plugin.ts'),
  },
  {
    name: 'light.hue',
    disabledHint:
      'it needs a bridge: add a "light.hue:" section with "bridge: <host or IP>", then run light.hue.connect',
    load: () => import('./light-hue/plugin.ts'),
  },
  {
    name: 'homeassistant',
    disabledHint: HOMEASSISTANT_DISABLED_HINT,
    load: () => import('./homeassistant/plugin.ts'),
  },
];

/** A section read before its plugin was loaded: validated by {@link loadEnabledPlugins}. */
class PendingSection {
  readonly value: unknown;
  constructor(value: unknown) {
    this.value = value;
  }
}

const loaders = new WeakMap<PluginDef, () => Promise<{ default: PluginDef }>>();

/**
 * Stand-ins for every plugin Pipit ships, for `loadConfig`: they carry what the loader and the
 * registry's errors need (names, aliases, defaults, why a plugin is off) but no actions, and they
 * keep their sections as read, for {@link loadEnabledPlugins} to load the enabled plugins and
 * validate those sections with the plugins' own schemas.
 *
 * @example
 * const config = loadConfig({ path, plugins: pluginCatalog });
 * const { config: checked, plugins } = await loadEnabledPlugins(config);
 */
export const pluginCatalog: readonly PluginDef[] = ENTRIES.map((entry) => {
  const def: PluginDef = {
    name: entry.name,
    ...(entry.aliases ? { aliases: entry.aliases } : {}),
    ...(entry.enabledByDefault ? { enabledByDefault: true } : {}),
    ...(entry.disabledHint ? { disabledHint: entry.disabledHint } : {}),
    summary: '',
    config: z.unknown().transform((value) => new PendingSection(value)),
    actions: [],
  };
  loaders.set(def, entry.load);
  return def;
});

/**
 * The plugin packages a configuration's `plugins:` lists, as stand-ins like {@link pluginCatalog}'s
 * (for `loadConfig`'s `packages`): {@link loadEnabledPlugins} imports them and checks their
 * sections with their own schemas.
 *
 * @example
 * const config = loadConfig({ path, plugins: pluginCatalog, packages: pluginPackages });
 */
export function pluginPackages(specs: readonly string[], configDir: string): PluginDef[] {
  return packageStandIns(
    specs,
    configDir,
    ENTRIES.flatMap((e) => [e.name, ...(e.aliases ?? [])]),
  ).map(({ def, load }) => {
    const standIn: PluginDef = {
      ...def,
      config: z.unknown().transform((value) => new PendingSection(value)),
    };
    loaders.set(standIn, load);
    return standIn;
  });
}

/**
 * The definitions for a configuration: the enabled plugins loaded (their sections, if read with
 * {@link pluginCatalog}, validated now: CONFIG_INVALID as `loadConfig` would throw), the others
 * left as stand-ins (enough for "plugin X is not enabled: ..." errors). Definitions that are not
 * stand-ins are used as they are.
 *
 * @example
 * const { config, plugins } = await loadEnabledPlugins(loadConfig({ path, plugins: pluginCatalog }));
 * const service = await createService(config, { plugins });
 */
export async function loadEnabledPlugins(
  config: LoadedConfig,
  available: readonly PluginDef[] = pluginCatalog,
): Promise<{ config: LoadedConfig; plugins: PluginDef[] }> {
  const names = new Set(available.map((def) => def.name));
  const all = [...available, ...config.packagePlugins.filter((def) => !names.has(def.name))];
  const plugins = await Promise.all(
    all.map(async (def) => {
      const load = loaders.get(def);
      return load && config.plugins.has(def.name) ? (await load()).default : def;
    }),
  );
  let sections: LoadedConfig['plugins'] | undefined;
  for (const def of plugins) {
    const section = config.plugins.get(def.name);
    if (!(section?.config instanceof PendingSection)) continue;
    sections ??= new Map(config.plugins);
    sections.set(def.name, {
      ...section,
      config: parsePluginSection(def, section.config.value, section.source),
    });
  }
  return { config: sections ? { ...config, plugins: sections } : config, plugins };
}
