import { z } from '../api/index.ts';

const Where = {
  host: z.string().describe('the broker'),
  port: z.number().describe('its port'),
};

/** The events the plugin raises, with Platypush's names and fields. */
export const ZIGBEE_EVENTS = {
  ZigbeeMqttOnlineEvent: z.object(Where),
  ZigbeeMqttOfflineEvent: z.object(Where),
  ZigbeeMqttDevicePropertySetEvent: z.object({
    ...Where,
    device: z.string().describe("the device's friendly name"),
    properties: z.record(z.string(), z.unknown()).describe('the properties that changed'),
  }),
  ZigbeeMqttDeviceConnectedEvent: z.object({
    ...Where,
    device: z.string().describe("the device's friendly name"),
  }),
  ZigbeeMqttDeviceRemovedEvent: z.object({
    ...Where,
    device: z.string().describe("the device's friendly name"),
    force: z.boolean().describe('always false: Zigbee2MQTT does not say'),
  }),
} as const;
