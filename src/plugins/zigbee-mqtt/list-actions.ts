import { defineAction, z } from '../api/index.ts';
import type { ZigbeeLink } from './link.ts';

/**
 * zigbee.mqtt.devices: the bridge's devices.
 *
 * @example
 * // {action: 'zigbee.mqtt.devices'} → [{ieee_address: '0x90fd…', friendly_name: 'living_room_bulb', …}]
 */
export const devices = defineAction({
  name: 'devices',
  summary: 'The devices paired with the bridge, as Zigbee2MQTT lists them on bridge/devices.',
  params: {},
  result: z
    .array(z.record(z.string(), z.unknown()))
    .describe(
      'ieee_address, friendly_name, type, definition {model, vendor, description, exposes}...',
    ),
  run: (_args, { state }: { state: ZigbeeLink }) => {
    state.ensure('zigbee.mqtt.devices', false);
    return [...state.net.devices.values()];
  },
});

/**
 * zigbee.mqtt.groups: the bridge's groups.
 *
 * @example
 * // {action: 'zigbee.mqtt.groups'} → [{id: 1, friendly_name: 'living_room', members: […]}]
 */
export const groups = defineAction({
  name: 'groups',
  summary: 'The groups of the network, as Zigbee2MQTT lists them on bridge/groups.',
  params: {},
  result: z.array(z.record(z.string(), z.unknown())).describe('id, friendly_name, members, scenes'),
  run: (_args, { state }: { state: ZigbeeLink }) => {
    state.ensure('zigbee.mqtt.groups', false);
    return state.net.groups;
  },
});
