// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePluginHead } from '../api/index.ts';
import { EVENTS } from './events.ts';

/** Said when a `homeassistant.*` action is called without a `homeassistant:` section. */
export const HOMEASSISTANT_DISABLED_HINT =
  'add a "homeassistant:" section with url (e.g. http://homeassistant.local:8123) and token (a long-lived access token from your Home Assistant profile)';

/**
 * `homeassistant`'s facts, for the plugin and the catalog: off until configured, and the events
 * it raises from Home Assistant's.
 *
 * @example
 * definePlugin({ ...head, summary: '...', actions });
 */
export const head = definePluginHead({
  name: 'homeassistant',
  disabledHint: HOMEASSISTANT_DISABLED_HINT,
  events: EVENTS,
});
