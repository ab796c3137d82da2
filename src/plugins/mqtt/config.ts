import { z } from 'zod';
import { secret } from '../../core/action.ts';
import { HostEntries } from '../http/hosts.ts';
import { isTopicFilter } from './topics.ts';

/** TLS settings: `true` for the system's CAs, or files and options. */
export const TlsSetting = z.union([
  z.boolean(),
  z.strictObject({
    ca_file: z
      .string()
      .min(1)
      .optional()
      .describe('CA certificate (PEM) the broker is checked against'),
    cert_file: z
      .string()
      .min(1)
      .optional()
      .describe('client certificate (PEM), for brokers that ask for one'),
    key_file: z.string().min(1).optional().describe('private key (PEM) of the client certificate'),
    insecure: z.boolean().default(false).describe('accept any broker certificate (testing only)'),
  }),
]);
export type TlsSetting = z.output<typeof TlsSetting>;

const TopicFilter = z.string().refine(isTopicFilter, {
  message:
    'is not a topic filter: "+" stands for one whole level and "#" for the whole rest, as in "home/+/temperature"',
});

const Subscription = z.union([
  TopicFilter,
  z.strictObject({
    topic: TopicFilter.describe('the topic filter'),
    qos: z
      .union([z.literal(0), z.literal(1), z.literal(2)])
      .default(0)
      .describe('subscription QoS'),
  }),
]);

/** A broker's TCP port (the configured one, or another named in a call). */
export const BrokerPort = z.number().int().min(1).max(65535);

/**
 * The `mqtt:` configuration section. The plugin is on without it, but only a `host` gives it a
 * broker to connect to at start (publish can still name one per call). Platypush's `tls_cafile`,
 * `tls_certfile`, `tls_keyfile` and `tls_insecure` are accepted as well as `tls: {...}`.
 *
 * @example
 * MqttConfig.parse({ host: 'broker.lan', topics: ['home/#'] }).port; // undefined (1883, or 8883 with TLS)
 */
export const MqttConfig = z.strictObject({
  host: z.string().min(1).optional().describe('the broker; without it nothing connects at start'),
  port: BrokerPort.optional().describe('broker port (default 1883, 8883 with TLS)'),
  username: z.string().optional().describe('user name, for brokers that ask for one'),
  password: secret(z.string().optional().describe('password, with username')),
  tls: TlsSetting.default(false).describe(
    'connect with TLS: true, or {ca_file, cert_file, key_file, insecure}',
  ),
  tls_cafile: z.string().min(1).optional().describe("Platypush's spelling of tls.ca_file"),
  tls_certfile: z.string().min(1).optional().describe("Platypush's spelling of tls.cert_file"),
  tls_keyfile: z.string().min(1).optional().describe("Platypush's spelling of tls.key_file"),
  tls_insecure: z.boolean().optional().describe("Platypush's spelling of tls.insecure"),
  client_id: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe(
      'client ID (default: pipit-<device_id>-<random>); two clients with one ID push each other off',
    ),
  allow_hosts: HostEntries.optional().describe(
    'brokers a call may name with host and port, written as in http.allow_hosts ("broker.lan", "*.lan", "10.0.0.5:1883", "10.0.0.0/8"); absent = the http.allow_hosts rules, or any host without them',
  ),
  topics: z
    .array(Subscription)
    .default([])
    .describe('topic filters subscribed at start: "home/#", or {topic, qos}'),
  timeout: z
    .number()
    .positive()
    .max(600)
    .default(10)
    .describe('seconds to wait for the broker: to connect, or to acknowledge a publish'),
  keepalive: z
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(60)
    .describe('keep-alive interval, seconds'),
  reconnect_min_seconds: z
    .number()
    .positive()
    .max(600)
    .default(1)
    .describe('first wait before reconnecting after the connection drops; doubles on each failure'),
  reconnect_max_seconds: z
    .number()
    .positive()
    .max(3600)
    .default(30)
    .describe('the longest wait between reconnection attempts'),
  max_message_bytes: z
    .number()
    .int()
    .min(1)
    .max(256 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('larger incoming messages are dropped (with a warning) instead of becoming events'),
});
export type MqttConfig = z.output<typeof MqttConfig>;

/** Folds Platypush's flat TLS keys into `tls`. */
export function tlsOf(config: MqttConfig): TlsSetting {
  const flat =
    config.tls_cafile ?? config.tls_certfile ?? config.tls_keyfile ?? config.tls_insecure;
  if (flat === undefined) return config.tls;
  const base = typeof config.tls === 'object' ? config.tls : { insecure: false };
  return {
    ...base,
    ...(config.tls_cafile ? { ca_file: config.tls_cafile } : {}),
    ...(config.tls_certfile ? { cert_file: config.tls_certfile } : {}),
    ...(config.tls_keyfile ? { key_file: config.tls_keyfile } : {}),
    ...(config.tls_insecure === undefined ? {} : { insecure: config.tls_insecure }),
  };
}
