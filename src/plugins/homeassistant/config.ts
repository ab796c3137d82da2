import { secret, z } from '../api/index.ts';

/**
 * The `homeassistant:` section.
 *
 * @example
 * homeassistant:
 *   url: http://homeassistant.local:8123
 *   token: !secret ha_token
 */
export const HomeAssistantConfig = z.strictObject({
  url: z
    .url({ protocol: /^https?$/ })
    .describe(
      'the Home Assistant address, e.g. http://homeassistant.local:8123 (https: connects with wss:)',
    ),
  token: secret(
    z
      .string()
      .min(1)
      .describe('a long-lived access token, created in your Home Assistant profile (Security tab)'),
  ),
  events: z
    .array(z.string().min(1))
    .default(['state_changed'])
    .describe(
      'Home Assistant event types to forward as Pipit events (state_changed → HomeAssistantStateChangedEvent, others → HomeAssistantEvent)',
    ),
  timeout_seconds: z
    .number()
    .positive()
    .max(300)
    .default(10)
    .describe('how long to wait for Home Assistant to answer a command (and a ping), in seconds'),
  heartbeat_seconds: z
    .number()
    .positive()
    .max(3600)
    .default(30)
    .describe('how often to ping Home Assistant to find a dead link, in seconds'),
  reconnect_min_seconds: z
    .number()
    .positive()
    .max(3600)
    .default(1)
    .describe(
      'the first wait before reconnecting after the link is lost, in seconds (doubles each try)',
    ),
  reconnect_max_seconds: z
    .number()
    .positive()
    .max(3600)
    .default(30)
    .describe('the longest wait between reconnection attempts, in seconds'),
});

export type HomeAssistantConfig = z.output<typeof HomeAssistantConfig>;

/** The WebSocket address of a Home Assistant URL: `ws(s)://host:port/api/websocket`. */
export function websocketUrl(url: string): string {
  const u = new URL(url);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/api/websocket`;
  u.search = '';
  u.hash = '';
  return u.toString();
}
