import { definePluginHead } from '../api/head.ts';

/**
 * `runs`'s facts, for the plugin and the catalog: on by default.
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions });
 */
export const head = definePluginHead({ name: 'runs', enabledByDefault: true });
