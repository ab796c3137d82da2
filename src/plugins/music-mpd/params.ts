import { defineAction, z } from '../api/index.ts';
import type { PluginAction } from '../api/index.ts';
import type { MpdClient } from './client.ts';
import type { MpdObject } from './shapes.ts';

/**
 * Defines one of the plugin's actions, whose state is the {@link MpdClient}.
 *
 * @example
 * mpdAction({ name: 'stop', summary: 'Stops.', params: {}, run: (_, { state }) => state.thenStatus([['stop']]) });
 */
export function mpdAction<P extends Record<string, z.ZodType>, R>(
  action: PluginAction<P, MpdClient, R>,
): PluginAction<P, MpdClient, R> {
  return defineAction(action);
}

/**
 * A whole number, also as a string of digits: Platypush's actions take `"3"` as well as `3`, and
 * MPD's answers (`pos: "3"`) are strings that procedures pass on.
 *
 * @example
 * intArg('queue position').parse('3'); // 3
 */
export function intArg(description: string, min = 0) {
  return z
    .union([z.number().int(), z.string().regex(/^-?\d+$/, 'is not a whole number')])
    .transform(Number)
    .pipe(z.number().int().min(min))
    .describe(description);
}

/** The answer of the actions that answer the player's status afterwards, as Platypush's do. */
export const StatusResult = z
  .record(z.string(), z.unknown())
  .describe("MPD's status afterwards: state, volume, random, repeat, song, elapsed... as strings");

/** A list of songs (`file`, `artist`, `title`, `album`, `time`, `duration`, `pos`, `id`...). */
export const SongsResult = z
  .array(z.record(z.string(), z.unknown()))
  .describe("songs with MPD's tags in lower case, values as strings");

/** A toggle argument: true/false sets the mode, absent flips it. */
export const toggleArg = z
  .boolean()
  .optional()
  .describe('true or false to set the mode; leave it out to flip it');

/** The value of a 0/1 field of the status as a boolean. */
export function isOn(status: MpdObject, key: string): boolean {
  const v = status[key];
  return v !== undefined && v !== '0';
}
