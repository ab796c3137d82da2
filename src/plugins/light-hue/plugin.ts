// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin, z } from '../api/index.ts';
import type { Bridge } from './bridge.ts';
import { storedUsername } from './bridge.ts';
import { HueClient, NOT_PAIRED } from './client.ts';
import { bridgeUrl, HueConfig } from './config.ts';
import { controlActions } from './control.ts';
import { connect } from './pairing.ts';
import { poll } from './poller.ts';
import { readActions } from './read.ts';

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

/** The disabled hint (also in the catalog, which must agree). */
export const HUE_DISABLED_HINT =
  'it needs a bridge: add a "light.hue:" section with "bridge: <host or IP>", then run light.hue.connect';

export default definePlugin({
  name: 'light.hue',
  summary: 'Philips Hue lights through the bridge’s local REST API (v1).',
  config: HueConfig,
  // Platypush's kind (platypush.message.event.light.LightStatusChangeEvent): its users' hooks match.
  events: { 'light.LightStatusChangeEvent': LightStatusChangeEvent },
  actions: [connect, ...controlActions, ...readActions],
  enabledByDefault: false,
  disabledHint: HUE_DISABLED_HINT,
  init: (ctx) => {
    const { config, kv, signal } = ctx;
    const username = storedUsername(kv, config.bridge);
    const bridge: Bridge = {
      config,
      client: new HueClient(bridgeUrl(config.bridge), config.timeout_seconds),
      username,
      link: { connected: false, detail: username ? 'connecting' : NOT_PAIRED, retryAt: 0 },
      setStatus: (status) => ctx.setStatus(status),
      kick: () => {},
    };
    ctx.setStatus({ connected: false, detail: username ? 'connecting' : NOT_PAIRED });
    void poll(bridge, (kind, fields) => ctx.fire(kind, fields), signal);
    return bridge;
  },
});
