import { didYouMean } from '../lib/suggest.ts';

/**
 * The Platypush plugins Pipit does not provide (yet), for the warnings about a configuration that
 * calls or configures one, and for the migration guide. The ones Pipit provides are not listed
 * here: they are its plugins' names and aliases (each plugin's head says them once).
 */

// The common ones of Platypush's sample configuration and documentation. A plugin Pipit ships
// must not be here (test/config/missing-plugins.test.ts checks it against the catalog).
const NOT_PROVIDED: ReadonlySet<string> = new Set([
  'alarm',
  'arduino',
  'assistant.google',
  'bluetooth',
  'calendar',
  'camera.ffmpeg',
  'camera.pi',
  'clipboard',
  'file.monitor',
  'http.webpage',
  'ifttt',
  'lastfm',
  'mail',
  'media.chromecast',
  'media.jellyfin',
  'media.kodi',
  'media.mpv',
  'media.plex',
  'media.vlc',
  'rss',
  'sensor.ltr559',
  'serial',
  'sound',
  'torrent',
  'tts',
  'tts.google',
  'tts.mimic3',
  'weather.openweathermap',
  'zwave.mqtt',
]);

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
  return NOT_PROVIDED.has(name);
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
 * What to add to a message about a plugin Pipit does not have: that no Pipit plugin provides it,
 * and a "did you mean" against Pipit's plugins when the name is not a Platypush plugin Pipit lacks
 * (a misspelling, then).
 *
 * @example
 * missingPluginHint('light.hue', ['utils']); // ' (no Pipit plugin provides it yet)'
 * missingPluginHint('utlis', ['utils']); // ' (no Pipit plugin provides it yet). Did you mean "utils"?'
 */
export function missingPluginHint(plugin: string, pipitPlugins: Iterable<string>): string {
  const note = ' (no Pipit plugin provides it yet)';
  return NOT_PROVIDED.has(plugin) ? note : `${note}${didYouMean(plugin, pipitPlugins)}`;
}

/**
 * The Platypush plugins Pipit lacks, sorted, for documentation and tests.
 *
 * @example
 * notProvidedPlatypushPlugins().includes('media.kodi'); // true
 */
export function notProvidedPlatypushPlugins(): string[] {
  return [...NOT_PROVIDED].sort((a, b) => a.localeCompare(b));
}
