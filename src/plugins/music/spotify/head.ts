import { definePluginHead } from '../../api/head.ts';

/**
 * `music.spotify`'s facts, for the plugin and the catalog: off until configured; Platypush's `music.streaming` names it too.
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions });
 */
export const head = definePluginHead({ name: 'music.spotify', aliases: ['music.streaming'] });
