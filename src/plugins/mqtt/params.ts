import { z } from 'zod';
import { actionsFor, secret } from '../../core/action.ts';
import { PipitError } from '../../core/errors.ts';
import { brokerKey, clientIdFor, defaultPort } from './broker.ts';
import type { BrokerOptions } from './broker.ts';
import { BrokerPort, TlsSetting } from './config.ts';
import type { MqttConnection } from './connection.ts';
import { checkBrokerHost } from './hosts.ts';
import type { MqttState } from './state.ts';

/** `defineAction` for the mqtt plugin's actions. */
export const mqttAction = actionsFor<MqttState>();

/** QoS 0, 1 or 2. */
export const QosParam = z.union([z.literal(0), z.literal(1), z.literal(2)]);

/** The parameters that name another broker than the configured one. */
export const brokerParams = {
  host: z
    .string()
    .min(1)
    .optional()
    .describe(
      'another broker than the configured one (mqtt.host); mqtt.allow_hosts (else http.allow_hosts), when set, must allow it',
    ),
  port: BrokerPort.optional().describe('its port (default 1883, 8883 with TLS)'),
  username: z.string().optional().describe('user name on that broker'),
  password: secret(z.string().optional().describe('password on that broker')),
  tls: TlsSetting.optional().describe(
    'TLS for that broker: true, or {ca_file, cert_file, key_file, insecure}',
  ),
  client_id: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('client ID on that broker (default: generated)'),
};

/** What the broker parameters of a call hold. */
export interface BrokerArgs {
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  tls?: z.output<typeof TlsSetting>;
  client_id?: string;
}

/** The hint when no broker is configured nor named. */
export function notConfigured(action: string): PipitError {
  return new PipitError(
    'UNAVAILABLE',
    `${action}: no MQTT broker: add "mqtt: {host: <broker>}" to the configuration, or pass "host" (and "port")`,
  );
}

/**
 * The broker a call is about: the configured connection when the call names no other broker (or names
 * the same one), else options for the one it names, once the host rules allow it (FORBIDDEN if not).
 *
 * @example
 * const target = resolveBroker(state, args, 'mqtt.publish'); // { conn } or { broker }
 */
export function resolveBroker(
  state: MqttState,
  args: BrokerArgs,
  action: string,
): { conn: MqttConnection } | { broker: BrokerOptions } {
  if (args.host === undefined) {
    if (!state.main) throw notConfigured(action);
    return { conn: state.main };
  }
  const tls = args.tls ?? false;
  const broker: BrokerOptions = {
    host: args.host,
    port: args.port ?? defaultPort(tls),
    ...(args.username === undefined ? {} : { username: args.username }),
    ...(args.password === undefined ? {} : { password: args.password }),
    tls,
    clientId: clientIdFor(args.client_id, state.deviceId),
    keepalive: state.config.keepalive,
    connectTimeoutMs: state.config.timeout * 1000,
  };
  if (state.main && brokerKey(state.main.broker) === brokerKey(broker)) return { conn: state.main };
  // The configured broker under another identity is no other host.
  const configured = state.main?.broker;
  if (configured?.host !== broker.host || configured.port !== broker.port)
    checkBrokerHost(state.hostRules, broker.host, broker.port, action);
  return { broker };
}
