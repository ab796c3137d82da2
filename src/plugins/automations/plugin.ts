import { definePlugin } from '../../core/action.ts';
import { headFacts } from '../api/head.ts';
import { head } from './head.ts';
import { remove } from './delete.ts';
import { disable, enable } from './enable.ts';
import { get } from './get.ts';
import { schedulerOf } from './inventory.ts';
import { list } from './list.ts';
import { save } from './save.ts';
import { automationsState } from './state.ts';
import type { AutomationsState } from './state.ts';
import { test } from './test-run.ts';

/**
 * `automations`: the back end of the Automations page. Lists procedures, event hooks, web hooks
 * and crons from the YAML files and the scripts; shows one with its YAML as written; saves one
 * (checked as at start, written in place with the file's comments kept, applied at once) or
 * deletes it, keeping the file's previous versions; switches hooks and crons off and on (kept in
 * the plugin's store across restarts); and tests one, for real or as a dry run.
 *
 * @example
 * await run('automations.list', { kind: 'cron' });
 * await run('automations.disable', { name: 'cron.Nightly' });
 */
export default definePlugin<unknown, AutomationsState>({
  ...headFacts(head),
  summary:
    'Lists, shows, edits, deletes, switches off and tests the procedures, hooks and crons (YAML and scripts).',
  // It edits the configuration, reloads it, reads the run history and switches hooks and crons.
  privileged: true,
  actions: [list, get, save, remove, enable, disable, test],
  init: ({ services }) => {
    const state = automationsState(services.store.pluginKv('automations'));
    // The switches are consulted where hooks and crons fire: those layers see only a predicate.
    services.events.hooks.isDisabled = (hook) => state.disabled.has(`event.hook.${hook}`);
    schedulerOf(services).isDisabled = (job) => state.disabled.has(`cron.${job}`);
    return state;
  },
});
