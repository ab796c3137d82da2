import { didYouMean } from '../lib/suggest.ts';

/**
 * Platypush's plugins and what provides each in Pipit: the one place that says so, for the
 * warnings about a configuration that calls or configures a plugin Pipit does not have, and for the
 * migration guide. There is no package registry yet: a plugin Pipit does not ship is "none yet".
 */

// Platypush plugin name → the Pipit plugin that provides its actions, or null (none yet). The
// common ones of Platypush's sample configuration and documentation; a name that is not here is
// treated as null.
const PROVIDERS: Readonly<Record<string, string | null>> = {
  // Shipped with Pipit (same name, or an alias of one of its plugins).
  event: 'event',
  file: 'file',
  http: 'http',
  'http.request': 'http',
  inspect: 'inspect',
  'light.hue': 'light.hue',
  logger: 'logger',
  mqtt: 'mqtt',
  'music.spotify': 'music.spotify',
  shell: 'shell',
  utils: 'utils',
  variable: 'variable',
  'zigbee.mqtt': 'zigbee.mqtt',
  // Not provided yet.
  alarm: null,
  arduino: null,
  'assistant.google': null,
  bluetooth: null,
  calendar: null,
  'camera.ffmpeg': null,
  'camera.pi': null,
  clipboard: null,
  db: null,
  'file.monitor': null,
  'http.webpage': null,
  ifttt: null,
  lastfm: null,
  mail: null,
  'media.chromecast': null,
  'media.jellyfin': null,
  'media.kodi': null,
  'media.mpv': null,
  'media.plex': null,
  'media.vlc': null,
  'music.mpd': null,
  ntfy: null,
  rss: null,
  'sensor.ltr559': null,
  serial: null,
  sound: null,
  system: null,
  torrent: null,
  tts: null,
  'tts.google': null,
  'tts.mimic3': null,
  'weather.openweathermap': null,
  'zwave.mqtt': null,
};

/**
 * True when `name` is a Platypush plugin that Pipit does not provide (yet): a call to
 * `<name>.<action>` is then a call to a missing plugin, not to an action of a shorter-named Pipit
 * plugin (`http.webpage.simplify` is not the `http` plugin's `webpage.simplify`).
 *
 * @example
 * isUnprovidedPlatypushPlugin('http.webpage'); // true
 * isUnprovidedPlatypushPlugin('http.request'); // false
 */
export function isUnprovidedPlatypushPlugin(name: string): boolean {
  return Object.hasOwn(PROVIDERS, name) && PROVIDERS[name] === null;
}

/**
 * The plugin a call names, Platypush's way: everything before the last dot (action names have no
 * dots).
 *
 * @example
 * pluginOfAction('light.hue.on'); // 'light.hue'
 */
export function pluginOfAction(action: string): string {
  const dot = action.lastIndexOf('.');
  return dot < 0 ? action : action.slice(0, dot);
}

/**
 * Which Pipit plugin provides a Platypush plugin, for a message: `no Pipit plugin provides it yet`,
 * or `the Pipit plugin "x" provides it`.
 *
 * @example
 * `plugin "light.hue" is not installed (${providerNote('light.hue')})`;
 * // 'plugin "light.hue" is not installed (no Pipit plugin provides it yet)'
 */
export function providerNote(plugin: string): string {
  const provider = Object.hasOwn(PROVIDERS, plugin) ? PROVIDERS[plugin] : null;
  return provider
    ? `the Pipit plugin "${provider}" provides it`
    : 'no Pipit plugin provides it yet';
}

/**
 * What to add to a message about a plugin Pipit does not have: which Pipit plugin provides it, and
 * a "did you mean" against Pipit's plugins when the name is not a Platypush plugin of the table (a
 * misspelling, then, rather than a plugin Pipit lacks).
 *
 * @example
 * missingPluginHint('light.hue', ['utils']); // ' (no Pipit plugin provides it yet)'
 * missingPluginHint('utlis', ['utils']); // ' (no Pipit plugin provides it yet). Did you mean "utils"?'
 */
export function missingPluginHint(plugin: string, pipitPlugins: Iterable<string>): string {
  const note = ` (${providerNote(plugin)})`;
  return Object.hasOwn(PROVIDERS, plugin) ? note : `${note}${didYouMean(plugin, pipitPlugins)}`;
}

/**
 * The table, sorted, for documentation and tests.
 *
 * @example
 * platypushPluginTable().find(([name]) => name === 'light.hue'); // ['light.hue', null]
 */
export function platypushPluginTable(): [string, string | null][] {
  return Object.entries(PROVIDERS).sort(([a], [b]) => a.localeCompare(b));
}
