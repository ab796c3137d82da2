import { definePluginHead } from '../api/index.ts';

/**
 * `http`'s facts, for the plugin and the catalog: on by default, and Platypush's `http.request` too.
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions });
 */
export const head = definePluginHead({
  name: 'http',
  aliases: ['http.request'],
  enabledByDefault: true,
});
