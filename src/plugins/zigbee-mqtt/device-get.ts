import { defineAction, z } from '../api/index.ts';
import type { ZigbeeLink } from './link.ts';
import { Device, findDevice } from './lookup.ts';
import { propertiesOf } from './network.ts';
import type { Z2mDevice } from './network.ts';

/** The payload of a /get asking for every readable property, as Platypush builds it. */
function readable(device: Z2mDevice): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, e] of propertiesOf(device))
    if ((e.access ?? 0) & 4 && !e.features) out[name] = '';
  return out;
}

/**
 * zigbee.mqtt.device_get: reads a device's properties.
 *
 * @example
 * // {action: 'zigbee.mqtt.device_get', args: {device: 'kitchen/plug', property: 'power'}} → {power: 12.5}
 */
export const deviceGet = defineAction({
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
