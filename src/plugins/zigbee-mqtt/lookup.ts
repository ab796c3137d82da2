import { PipitError, z } from '../api/index.ts';
import type { ZigbeeLink } from './link.ts';
import type { Z2mDevice } from './network.ts';

/** A device, as every action names it. */
export const Device = z.string().min(1).describe('friendly name or IEEE address of the device');

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        prev[j]! + 1,
        row[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = row;
  }
  return prev[b.length]!;
}

/** ` (did you mean "x"?)` when a known name is close to `name`, else ''. */
export function suggest(name: string, known: string[]): string {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestScore) [best, bestScore] = [k, d];
  }
  return best !== undefined && bestScore <= Math.max(2, Math.floor(name.length / 3))
    ? ` (did you mean "${best}"?)`
    : '';
}

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
    `${what}: no device "${name}" on the Zigbee2MQTT bridge${suggest(name, known)}; known: ${known.length ? known.map((n) => `"${n}"`).join(', ') : 'none (no bridge/devices list received yet)'}`,
  );
}
