import { definePluginHead } from '../api/head.ts';

/**
 * `automations`'s facts, for the plugin and the catalog: on by default.
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions });
 */
export const head = definePluginHead({ name: 'automations', enabledByDefault: true });
