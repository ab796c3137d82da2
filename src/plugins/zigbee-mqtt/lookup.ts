import { didYouMean, PipitError, z } from '../api/index.ts';
import type { ZigbeeLink } from './link.ts';
import type { Z2mDevice } from './network.ts';

/** A device, as every action names it. */
export const Device = z.string().min(1).describe('friendly name or IEEE address of the device');

/**
 * The device named `name` (friendly name or IEEE address), or NOT_FOUND naming it with a "did you
 * mean" among the devices the bridge lists.
 *
 * @example
 * const lamp = findDevice(link, 'living_room_lamp', 'zigbee.mqtt.device_set');
 */
export function findDevice(link: ZigbeeLink, name: string, what: string): Z2mDevice {
  const device = link.net.find(name);
  if (device) return device;
  const known = link.net.names();
  throw new PipitError(
    'NOT_FOUND',
    `${what}: no device "${name}" on the Zigbee2MQTT bridge (known: ${known.length ? known.map((n) => `"${n}"`).join(', ') : 'none, no bridge/devices list received yet'})${didYouMean(name, known)}`,
  );
}
