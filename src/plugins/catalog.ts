import { z } from 'zod';
import { parsePluginSection } from '../config/load.ts';
import type { LoadedConfig } from '../config/load.ts';
import type { PluginDef } from '../core/action.ts';
import type { PluginHead } from './api/head.ts';
import { headFacts } from './api/head.ts';
import { head as automationsHead } from './automations/head.ts';
import { head as chatTelegramHead } from './chat-telegram/head.ts';
import { head as dbHead } from './db/head.ts';
import { head as eventHead } from './event.ts';
import { head as fileHead } from './file/head.ts';
import { head as homeassistantHead } from './homeassistant/head.ts';
import { head as httpHead } from './http/head.ts';
import { head as inspectHead } from './inspect.ts';
import { head as lightHueHead } from './light-hue/head.ts';
import { head as mailSmtpHead } from './mail-smtp/head.ts';
import { head as loggerHead } from './logger.ts';
import { head as mqttHead } from './mqtt/head.ts';
import { head as ntfyHead } from './ntfy/head.ts';
import { head as musicMpdHead } from './music-mpd/head.ts';
import { head as spotifyHead } from './music/spotify/head.ts';
import { packageStandIns } from './packages/stand-ins.ts';
import { head as runsHead } from './runs/head.ts';
import { head as shellHead } from './shell/head.ts';
import { head as systemHead } from './system/head.ts';
import { head as utilsHead } from './utils.ts';
import { head as variableHead } from './variable.ts';
import { head as zigbeeMqttHead } from './zigbee-mqtt/head.ts';

// Every plugin Pipit ships, by name, each module loaded only when a configuration enables it:
// importing all of them (index.ts) costs a one-off `pipit run` or a start-up the modules, schemas
// and dependencies of plugins that are off (Spotify, file and shell are off by default). What the
// catalog knows of a plugin that is off (names, default, hint, event kinds) is its `head.ts`,
// which the plugin's own definition spreads: written once. The plugins that are on by default and
// fit in one file keep their head in that file.

interface CatalogEntry {
  head: PluginHead;
  load: () => Promise<{ default: PluginDef }>;
}

const ENTRIES: readonly CatalogEntry[] = [
  { head: utilsHead, load: () => import('./utils.ts') },
  { head: loggerHead, load: () => import('./logger.ts') },
  { head: variableHead, load: () => import('./variable.ts') },
  { head: inspectHead, load: () => import('./inspect.ts') },
  { head: eventHead, load: () => import('./event.ts') },
  { head: runsHead, load: () => import('./runs/plugin.ts') },
  { head: automationsHead, load: () => import('./automations/plugin.ts') },
  { head: spotifyHead, load: () => import('./music/spotify/plugin.ts') },
  { head: shellHead, load: () => import('./shell/plugin.ts') },
  { head: fileHead, load: () => import('./file/plugin.ts') },
  { head: httpHead, load: () => import('./http/plugin.ts') },
  { head: mqttHead, load: () => import('./mqtt/plugin.ts') },
  { head: zigbeeMqttHead, load: () => import('./zigbee-mqtt/plugin.ts') },
  { head: lightHueHead, load: () => import('./light-hue/plugin.ts') },
  { head: homeassistantHead, load: () => import('./homeassistant/plugin.ts') },
  { head: systemHead, load: () => import('./system/plugin.ts') },
  { head: dbHead, load: () => import('./db/plugin.ts') },
  { head: musicMpdHead, load: () => import('./music-mpd/plugin.ts') },
  { head: ntfyHead, load: () => import('./ntfy/plugin.ts') },
  { head: mailSmtpHead, load: () => import('./mail-smtp/plugin.ts') },
  { head: chatTelegramHead, load: () => import('./chat-telegram/plugin.ts') },
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
    ...headFacts(entry.head),
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
    ENTRIES.flatMap(({ head }) => [head.name, ...(head.aliases ?? [])]),
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
