// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePluginHead } from '../api/index.ts';
import { ZIGBEE_EVENTS } from './events.ts';

/**
 * `zigbee.mqtt`'s facts, for the plugin and the catalog: off until a broker is configured, and
 * Platypush's events.
 *
 * @example
 * definePlugin({ ...head, summary: '...', actions });
 */
export const head = definePluginHead({
  name: 'zigbee.mqtt',
  disabledHint: 'it needs a broker: add a "zigbee.mqtt:" section with at least "host"',
  events: ZIGBEE_EVENTS,
});
