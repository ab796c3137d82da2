import { defineAction, PipitError, z } from '../api/index.ts';
import type { ZigbeeLink } from './link.ts';
import { Device, findDevice } from './lookup.ts';
import { propertiesOf } from './network.ts';
import type { Expose, Z2mDevice } from './network.ts';

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

/**
 * zigbee.mqtt.device_set: sets a device's properties.
 *
 * @example
 * // {action: 'zigbee.mqtt.device_set', args: {device: 'living_room_bulb', property: 'brightness', value: 200}} → {brightness: 200}
 */
export const deviceSet = defineAction({
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
