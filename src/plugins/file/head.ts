import { definePluginHead } from '../api/head.ts';

/**
 * Why `file` is off and how to turn it on.
 *
 * @example
 * console.log(FILE_DISABLED_HINT);
 */
export const FILE_DISABLED_HINT = `it reads, writes and deletes files on this host as the service's user, so it is off until the configuration has a "file:" section. Add "file: {}" to enable it for every path the service user can reach, or "file: {roots: [/srv/pipit]}" to confine it to those directories, then restart Pipit`;

/**
 * `file`'s facts, for the plugin and the catalog: off until configured.
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions: [read] });
 */
export const head = definePluginHead({ name: 'file', disabledHint: FILE_DISABLED_HINT });
