// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import { ZIGBEE_ACTIONS } from './actions.ts';
import { ZigbeeMqttConfig } from './config.ts';
import { head } from './head.ts';
import { ZigbeeLink } from './link.ts';
import type { NetworkChange } from './network.ts';

const KINDS = {
  online: 'ZigbeeMqttOnlineEvent',
  offline: 'ZigbeeMqttOfflineEvent',
  connected: 'ZigbeeMqttDeviceConnectedEvent',
  removed: 'ZigbeeMqttDeviceRemovedEvent',
  properties: 'ZigbeeMqttDevicePropertySetEvent',
} as const;

/**
 * Zigbee2MQTT over MQTT, with Platypush's `zigbee.mqtt` actions and events: the plugin keeps its
 * own broker connection, reads the bridge's retained topics and talks to it with its
 * request/response topics.
 *
 * @example
 * // config.yaml
 * // zigbee.mqtt:
 * //   host: broker.lan
 */
export default definePlugin({
  ...head,
  summary: 'Zigbee devices through a Zigbee2MQTT bridge: list, read, set, rename, permit joins.',
  config: ZigbeeMqttConfig,
  actions: ZIGBEE_ACTIONS,
  init: (ctx) => {
    const { config, log } = ctx;
    const where = { host: config.host, port: config.port };
    const fieldsOf = (c: NetworkChange): Record<string, unknown> => {
      switch (c.kind) {
        case 'properties':
          return { ...where, device: c.device.friendly_name, properties: c.properties };
        case 'removed':
          return { ...where, device: c.device, force: false };
        case 'connected':
          return { ...where, device: c.device };
        default:
          return where;
      }
    };
    const onChange = (c: NetworkChange) => {
      ctx
        .fire(KINDS[c.kind], fieldsOf(c))
        .catch((err: unknown) =>
          log.warn({ err }, `zigbee.mqtt: could not raise ${KINDS[c.kind]}`),
        );
    };
    const link = new ZigbeeLink(config, log, (s) => ctx.setStatus(s), onChange);
    ctx.signal.addEventListener('abort', () => link.stop(), { once: true });
    link.start();
    return link;
  },
  stop: (link) => link.stop(),
});
