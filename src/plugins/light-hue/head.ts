// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePluginHead, z } from '../api/index.ts';

/** The fields of LightStatusChangeEvent: the light, and only the state fields that changed. */
export const LightStatusChangeEvent = z.object({
  plugin_name: z.string().describe('always "light.hue"'),
  light_id: z.string().describe("the light's id on the bridge"),
  light_name: z.string().describe("the light's name"),
  on: z.boolean().optional(),
  bri: z.number().optional(),
  sat: z.number().optional(),
  hue: z.number().optional(),
  ct: z.number().optional(),
  xy: z.array(z.number()).optional(),
});

/** Why light.hue is off and how to turn it on. */
export const HUE_DISABLED_HINT =
  'it needs a bridge: add a "light.hue:" section with "bridge: <host or IP>", then run light.hue.connect';

/**
 * `light.hue`'s facts, for the plugin and the catalog: off until a bridge is configured, and
 * Platypush's kind (platypush.message.event.light.LightStatusChangeEvent) so its users' hooks match.
 *
 * @example
 * definePlugin({ ...head, summary: '...', actions });
 */
export const head = definePluginHead({
  name: 'light.hue',
  disabledHint: HUE_DISABLED_HINT,
  events: { 'light.LightStatusChangeEvent': LightStatusChangeEvent },
});
