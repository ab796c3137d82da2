import { defineAction, PipitError, z } from '../api/index.ts';
import type { ZigbeeLink } from './link.ts';
import { findDevice } from './lookup.ts';
import { propertiesOf } from './network.ts';
import type { Expose, Z2mDevice } from './network.ts';

const Device = z.string().min(1).describe('friendly name or IEEE address of the device');

const devices = defineAction({
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

const groups = defineAction({
  name: 'groups',
  summary: 'The groups of the network, as Zigbee2MQTT lists them on bridge/groups.',
  params: {},
  result: z.array(z.record(z.string(), z.unknown())).describe('id, friendly_name, members, scenes'),
  run: (_args, { state }: { state: ZigbeeLink }) => {
    state.ensure('zigbee.mqtt.groups', false);
    return state.net.groups;
  },
});

/** The payload of a /get asking for every readable property, as Platypush builds it. */
function readable(device: Z2mDevice): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, e] of propertiesOf(device))
    if ((e.access ?? 0) & 4 && !e.features) out[name] = '';
  return out;
}

const deviceGet = defineAction({
  name: 'device_get',
  summary: "Reads a device's properties: asks it with /get and answers its next state message.",
  description:
    'Without property: every readable property of its exposes is asked for; a device with none answers its last known state.',
  params: {
    device: Device,
    property: z.string().min(1).optional().describe('one property to read (default: all)'),
  },
  result: z.record(z.string(), z.unknown()).describe('property → value'),
  run: async (
    { device, property },
    { state, signal }: { state: ZigbeeLink; signal: AbortSignal },
  ) => {
    const what = 'zigbee.mqtt.device_get';
    state.ensure(what);
    const dev = findDevice(state, device, what);
    if (property) {
      const answer = await state.roundTrip(dev, 'get', { [property]: '' }, property, signal);
      return { [property]: answer[property] };
    }
    const ask = readable(dev);
    if (!Object.keys(ask).length) return state.net.states.get(dev.ieee_address) ?? {};
    await state.roundTrip(dev, 'get', ask, undefined, signal);
    return state.net.states.get(dev.ieee_address) ?? {};
  },
});

function checkProperty(dev: Z2mDevice, property: string): Expose | undefined {
  const known = propertiesOf(dev);
  if (!known.size) return undefined;
  const e = known.get(property);
  if (!e)
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `zigbee.mqtt.device_set: the device "${dev.friendly_name}" has no property "${property}"; it has: ${[...known.keys()].join(', ')}`,
    );
  return e;
}

const deviceSet = defineAction({
  name: 'device_set',
  summary: "Sets a device's property with <device>/set and answers its new state.",
  params: {
    device: Device,
    property: z.string().min(1).optional().describe('the property to set (state, brightness...)'),
    value: z.unknown().optional().describe('its new value ("ON", 200, {"x": 0.3, "y": 0.3}...)'),
    values: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('several properties at once, instead of property and value'),
  },
  result: z.record(z.string(), z.unknown()).describe('property → value as the device reports it'),
  run: async (
    { device, property, value, values },
    { state, signal }: { state: ZigbeeLink; signal: AbortSignal },
  ) => {
    const what = 'zigbee.mqtt.device_set';
    if (!property && !values)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${what}: give "property" and "value", or "values"`,
      );
    state.ensure(what);
    const dev = findDevice(state, device, what);
    const msg: Record<string, unknown> = { ...(values ?? {}) };
    if (property) msg[property] = value;
    const expose = property ? checkProperty(dev, property) : undefined;
    // A write-only property (access without bit 1) is never published back: do not wait for it.
    if (property && expose && !((expose.access ?? 1) & 1)) {
      await state.publish(`${dev.friendly_name}/set`, msg);
      return { [property]: value };
    }
    const answer = await state.roundTrip(dev, 'set', msg, property, signal);
    return property ? { [property]: answer[property] } : answer;
  },
});

const deviceRename = defineAction({
  name: 'device_rename',
  summary:
    'Renames a device (bridge/request/device/rename); without device, the last one that joined.',
  params: {
    name: z.string().min(1).describe('the new friendly name'),
    device: Device.optional().describe(
      'current friendly name or IEEE address (default: the last device that joined)',
    ),
  },
  result: z
    .record(z.string(), z.unknown())
    .describe("the bridge's answer: {from, to, homeassistant_rename}"),
  run: async ({ name, device }, { state, signal }: { state: ZigbeeLink; signal: AbortSignal }) => {
    const what = 'zigbee.mqtt.device_rename';
    state.ensure(what);
    if (device === name) return null;
    if (device) findDevice(state, device, what);
    if (state.net.find(name))
      throw new PipitError(
        'CONFLICT',
        `${what}: a device named "${name}" already exists on the network: pick another name`,
      );
    return state.request(
      'device/rename',
      device ? { from: device, to: name } : { last: true, to: name },
      signal,
    );
  },
});

const permitJoin = defineAction({
  name: 'permit_join',
  summary: 'Allows or stops devices joining the network (bridge/request/permit_join).',
  params: {
    permit: z.boolean().default(true).describe('true to allow joins, false to stop them'),
    timeout: z
      .number()
      .int()
      .positive()
      .max(254)
      .optional()
      .describe('allow joins for this many seconds only'),
  },
  result: z.record(z.string(), z.unknown()).describe("the bridge's answer: {value, time}"),
  run: async (
    { permit, timeout },
    { state, signal }: { state: ZigbeeLink; signal: AbortSignal },
  ) => {
    state.ensure('zigbee.mqtt.permit_join');
    return state.request(
      'permit_join',
      { value: permit, ...(timeout ? { time: timeout } : {}) },
      signal,
    );
  },
});

/** Every action of the plugin. */
export const ZIGBEE_ACTIONS = [devices, groups, deviceGet, deviceSet, deviceRename, permitJoin];
