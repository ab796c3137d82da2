import { secret, z } from '../api/index.ts';

/**
 * The `zigbee.mqtt:` section, with Platypush's keys: `host`, `port`, `topic_prefix` (or its older
 * spelling `base_topic`), `timeout`, `username`, `password` and the flat `tls_*` files.
 *
 * @example
 * ZigbeeMqttConfig.parse({ host: 'broker.lan' }).topic_prefix; // 'zigbee2mqtt'
 */
export const ZigbeeMqttConfig = z.strictObject({
  host: z.string().min(1).describe('the MQTT broker Zigbee2MQTT publishes to'),
  port: z.number().int().min(1).max(65535).default(1883).describe('broker port'),
  username: z.string().optional().describe('broker user name, for brokers that ask for one'),
  password: secret(z.string().optional().describe('broker password, with username')),
  topic_prefix: z
    .string()
    .min(1)
    .optional()
    .describe("Zigbee2MQTT's base_topic (its configuration.yaml): default zigbee2mqtt"),
  base_topic: z.string().min(1).optional().describe("Platypush's older spelling of topic_prefix"),
  timeout: z
    .number()
    .positive()
    .max(600)
    .default(10)
    .describe('seconds to wait for the bridge to answer a request, or a device its new state'),
  tls: z.boolean().default(false).describe('connect to the broker with TLS'),
  tls_cafile: z.string().min(1).optional().describe('CA certificate (PEM) for the broker'),
  tls_certfile: z.string().min(1).optional().describe('client certificate (PEM)'),
  tls_keyfile: z.string().min(1).optional().describe('private key (PEM) of the client certificate'),
  tls_version: z
    .string()
    .regex(/^(tls)?v?1\.[0-3]$/i, 'is not a TLS version: write tlsv1.2 or tlsv1.3')
    .optional()
    .describe('the lowest TLS version accepted (tlsv1.2, tlsv1.3)'),
  tls_ciphers: z.string().min(1).optional().describe('OpenSSL cipher list'),
  client_id: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('MQTT client ID (default: pipit-zigbee-<random>)'),
  tls_insecure: z.boolean().default(false).describe('accept any broker certificate (testing only)'),
  reconnect_min_seconds: z
    .number()
    .positive()
    .max(600)
    .default(1)
    .describe('first wait before reconnecting to the broker; doubles on each failure'),
  reconnect_max_seconds: z
    .number()
    .positive()
    .max(3600)
    .default(30)
    .describe('the longest wait between reconnection attempts'),
});
export type ZigbeeMqttConfig = z.output<typeof ZigbeeMqttConfig>;

/** The topic every Zigbee2MQTT topic starts with. */
export function prefixOf(config: ZigbeeMqttConfig): string {
  return (config.topic_prefix ?? config.base_topic ?? 'zigbee2mqtt').replace(/\/+$/, '');
}

/** Node's name of a Platypush `tls_version` (`tlsv1.2` → `TLSv1.2`). */
export function tlsMinVersion(version: string): 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' {
  const minor = /1\.([0-3])$/.exec(version)?.[1] ?? '2';
  return minor === '0' ? 'TLSv1' : (`TLSv1.${minor}` as 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3');
}

/** Whether the connection uses TLS: `tls: true` or any of the files. */
export function usesTls(config: ZigbeeMqttConfig): boolean {
  return config.tls || Boolean(config.tls_cafile ?? config.tls_certfile ?? config.tls_keyfile);
}
