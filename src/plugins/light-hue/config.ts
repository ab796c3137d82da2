import { z } from '../api/index.ts';

/**
 * The `light.hue:` section. Lights and groups are named as in the Hue app (or by their bridge id).
 *
 * @example
 * HueConfig.parse({ bridge: '192.168.1.20', lights: ['Hue Lamp 1'] });
 */
export const HueConfig = z.strictObject({
  bridge: z
    .string()
    .min(1)
    .describe('the bridge: host name or IP address (optionally with :port, or an http:// URL)'),
  lights: z
    .array(z.string().min(1))
    .optional()
    .describe('lights the actions control when called without lights or groups (default: all)'),
  groups: z
    .array(z.string().min(1))
    .optional()
    .describe('groups (rooms, zones) the actions control when called without lights or groups'),
  poll_seconds: z
    .number()
    .positive()
    .max(3600)
    .optional()
    .describe('how often the lights are read for LightStatusChangeEvent (default 20)'),
  poll_interval: z
    .number()
    .positive()
    .max(3600)
    .optional()
    .describe("Platypush's name for poll_seconds"),
  timeout_seconds: z
    .number()
    .positive()
    .max(60)
    .default(5)
    .describe('how long one request to the bridge may take before it fails with TIMEOUT'),
});

export type HueConfig = z.output<typeof HueConfig>;

/** The seconds between two reads of the lights. */
export function pollSeconds(config: HueConfig): number {
  return config.poll_seconds ?? config.poll_interval ?? 20;
}

/** `http://host[:port]` of the bridge, from the `bridge` setting. */
export function bridgeUrl(bridge: string): string {
  const trimmed = bridge.trim().replace(/\/+$/, '');
  return /^https?:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}
