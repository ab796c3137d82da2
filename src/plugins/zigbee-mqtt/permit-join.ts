import { defineAction, z } from '../api/index.ts';
import type { ZigbeeLink } from './link.ts';

/**
 * zigbee.mqtt.permit_join: lets devices join.
 *
 * @example
 * // {action: 'zigbee.mqtt.permit_join', args: {permit: true, timeout: 60}} → {value: true, time: 60}
 */
export const permitJoin = defineAction({
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
