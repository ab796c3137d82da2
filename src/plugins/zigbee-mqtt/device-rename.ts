import { defineAction, PipitError, z } from '../api/index.ts';
import type { ZigbeeLink } from './link.ts';
import { Device, findDevice } from './lookup.ts';

/**
 * zigbee.mqtt.device_rename: renames a device.
 *
 * @example
 * // {action: 'zigbee.mqtt.device_rename', args: {device: 'kitchen/plug', name: 'kitchen/kettle'}}
 */
export const deviceRename = defineAction({
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
