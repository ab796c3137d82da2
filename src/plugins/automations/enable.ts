import { actionsFor } from '../../core/action.ts';
import { PipitError } from '../../core/errors.ts';
import type { Services } from '../../core/services.ts';
import { AutomationName } from './get.ts';
import { findAutomation } from './inventory.ts';
import { setDisabled } from './state.ts';
import type { AutomationsState } from './state.ts';
import { EnableOutput } from './wire.ts';

const defineAction = actionsFor<AutomationsState>();

function toggle(services: Services, state: AutomationsState, name: string, on: boolean) {
  const a = findAutomation(services, name);
  if (a.kind === 'procedure')
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${name} is a procedure: it runs only when called, so it cannot be switched off (disable the hooks and crons that call it)`,
    );
  setDisabled(state, name, !on);
  return { name, enabled: on };
}

/**
 * `automations.disable`: switches a hook (event or web) or cron off, YAML or script: it stops
 * firing until enabled again, across reloads and restarts. The switch is kept in the plugin's own
 * store, not in the YAML file.
 *
 * @example
 * await run('automations.disable', { name: 'cron.Nightly' }); // {name: 'cron.Nightly', enabled: false}
 */
export const disable = defineAction({
  name: 'disable',
  summary:
    'Switches a hook or cron off (it stops firing) until enabled again; kept across restarts.',
  params: { name: AutomationName },
  result: EnableOutput,
  run: ({ name }, { state, services }): EnableOutput => toggle(services, state, name, false),
});

/**
 * `automations.enable`: switches a hook or cron back on.
 *
 * @example
 * await run('automations.enable', { name: 'cron.Nightly' }); // {name: 'cron.Nightly', enabled: true}
 */
export const enable = defineAction({
  name: 'enable',
  summary: 'Switches a hook or cron back on.',
  params: { name: AutomationName },
  result: EnableOutput,
  run: ({ name }, { state, services }): EnableOutput => toggle(services, state, name, true),
});
