import type { z } from 'zod';
import { KIND_PREFIX } from '../../events/kinds.ts';

/**
 * What Pipit knows of a plugin before loading it: its names, whether it is on without a section,
 * why it is off, and the events it raises. A built-in plugin keeps these in its own `head.ts`,
 * which both its definition (`definePlugin({ ...head, ... })`) and the catalog read, so that a
 * plugin that is off costs no import and its facts are written once.
 *
 * @example
 * export const head = definePluginHead({
 *   name: 'music.mpd',
 *   disabledHint: 'add a "music.mpd:" section with "host"',
 *   events: { 'music.MusicPlayEvent': z.object({ plugin_name: z.string() }) },
 * });
 */
export interface PluginHead {
  /** The plugin's name: its actions are `<name>.<action>`, its config section `<name>:`. */
  name: string;
  /** Other names its actions and config section answer to (Platypush's, for one). */
  aliases?: string[];
  /** On without a config section (default: off until the config has a `<name>:` section). */
  enabledByDefault?: boolean;
  /** Why the plugin is off by default and how to turn it on (said when it is called while off). */
  disabledHint?: string;
  /**
   * The event kinds the plugin raises: name → the schema of its fields. `GreetedEvent` is raised as
   * `pipit.message.event.<plugin>.GreetedEvent`; a dotted name (`light.LightStatusChangeEvent`)
   * gives the module itself, for a kind another tool (Platypush) already names. `fire()` and hooks
   * take the last word alone.
   */
  events?: Record<string, z.ZodType>;
}

/**
 * Checks a head's facts where it is written (a name Pipit can route, event names it can resolve)
 * and returns it as it is.
 *
 * @example
 * export const head = definePluginHead({ name: 'system', enabledByDefault: true });
 */
export function definePluginHead<H extends PluginHead>(head: H): H {
  if (!/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/.test(head.name))
    throw new Error(
      `plugin name "${head.name}" is not dotted lower-case words (like "music.mpd"): rename it`,
    );
  for (const key of Object.keys(head.events ?? {}))
    if (!/^([a-z][a-z0-9_]*\.)*[A-Z][A-Za-z0-9]*$/.test(key))
      throw new Error(
        `plugin "${head.name}": event "${key}" is not a CamelCase name (like "PlayEvent" or "music.PlayEvent")`,
      );
  return head;
}

/**
 * The full kind of each event a head declares, by the name it was declared with and by its last
 * word: `{ PlayEvent: 'pipit.message.event.music.mpd.PlayEvent' }`.
 *
 * @example
 * eventKindsOf({ name: 'shell', events: { ShellExitEvent: z.object({}) } }).ShellExitEvent;
 * // 'pipit.message.event.shell.ShellExitEvent'
 */
export function eventKindsOf<E extends Record<string, z.ZodType>>(
  head: PluginHead & { events?: E },
): Record<keyof E & string, string> & Partial<Record<string, string>> {
  const kinds: Record<string, string> = {};
  for (const key of Object.keys(head.events ?? {})) {
    const full = fullKind(head.name, key);
    kinds[key] = full;
    kinds[key.slice(key.lastIndexOf('.') + 1)] = full;
  }
  return kinds;
}

/**
 * The full kind of an event a plugin declares: its own module unless the name is dotted.
 *
 * @example
 * fullKind('light.hue', 'light.LightStatusChangeEvent'); // 'pipit.message.event.light.LightStatusChangeEvent'
 * fullKind('shell', 'ShellExitEvent'); // 'pipit.message.event.shell.ShellExitEvent'
 */
export function fullKind(plugin: string, key: string): string {
  return `${KIND_PREFIX}${key.includes('.') ? key : `${plugin}.${key}`}`;
}

/**
 * A head's facts as a plugin definition carries them (names, defaults, the full event kinds), for
 * the catalog's stand-ins and for the built-in plugins defined without the public API.
 *
 * @example
 * export default definePlugin({ ...headFacts(head), summary: '...', actions: [exec] });
 */
export function headFacts(head: PluginHead): {
  name: string;
  aliases?: string[];
  enabledByDefault?: boolean;
  disabledHint?: string;
  eventKinds: string[];
} {
  return {
    name: head.name,
    ...(head.aliases ? { aliases: head.aliases } : {}),
    ...(head.enabledByDefault ? { enabledByDefault: true } : {}),
    ...(head.disabledHint ? { disabledHint: head.disabledHint } : {}),
    eventKinds: [...new Set(Object.values(eventKindsOf(head)))],
  };
}
