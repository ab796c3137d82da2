import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type mqtt from 'mqtt';
import type { IClientOptions, MqttClient } from 'mqtt';
import { PipitError } from '../../core/errors.ts';
import type { TlsSetting } from './config.ts';

let mqttModule: Promise<{ default: typeof mqtt }> | undefined;

/**
 * Connects with MQTT.js, loaded on first use: importing it costs a few hundred milliseconds, which
 * every `pipit` command would pay otherwise, most of them with no broker to talk to.
 *
 * @example
 * const client = await connectClient(clientOptions(broker));
 */
export async function connectClient(options: IClientOptions): Promise<MqttClient> {
  mqttModule ??= import('mqtt');
  const { default: loaded } = await mqttModule;
  return loaded.connect(options);
}

/** Where and how to connect to one broker. */
export interface BrokerOptions {
  host: string;
  port: number;
  username?: string;
  password?: string;
  tls: TlsSetting;
  clientId: string;
  keepalive: number;
  connectTimeoutMs: number;
}

/**
 * A key naming a broker and the identity used on it: calls that name the same one share a
 * connection.
 *
 * @example
 * brokerKey({ host: 'broker.lan', port: 1883, tls: false }); // 'mqtt://broker.lan:1883'
 */
export function brokerKey(b: {
  host: string;
  port: number;
  username?: string;
  tls: TlsSetting;
}): string {
  return `${b.tls ? 'mqtts' : 'mqtt'}://${b.username ? `${encodeURIComponent(b.username)}@` : ''}${b.host}:${b.port}`;
}

/** The port when none is given: 1883, or 8883 with TLS. */
export function defaultPort(tls: TlsSetting): number {
  return tls ? 8883 : 1883;
}

/**
 * A client ID: the given one, or `pipit-<device_id>-<random>`.
 *
 * @example
 * clientIdFor(undefined, 'kitchen'); // 'pipit-kitchen-3f2a9c'
 */
export function clientIdFor(configured: string | undefined, deviceId: string): string {
  return configured ?? `pipit-${deviceId}-${randomBytes(3).toString('hex')}`;
}

function readPem(what: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new PipitError(
      'ACTION_FAILED',
      `mqtt: cannot read the ${what} ${path}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
}

/**
 * MQTT.js options for a broker. Reconnection and resubscription are Pipit's own (with backoff), so
 * MQTT.js's are off.
 *
 * @example
 * mqtt.connect(clientOptions(broker));
 */
export function clientOptions(b: BrokerOptions): IClientOptions {
  const tls = b.tls;
  return {
    host: b.host,
    port: b.port,
    protocol: tls ? 'mqtts' : 'mqtt',
    clientId: b.clientId,
    ...(b.username === undefined ? {} : { username: b.username }),
    ...(b.password === undefined ? {} : { password: b.password }),
    keepalive: b.keepalive,
    connectTimeout: b.connectTimeoutMs,
    reconnectPeriod: 0,
    resubscribe: false,
    clean: true,
    ...(typeof tls === 'object'
      ? {
          rejectUnauthorized: !tls.insecure,
          ...(tls.ca_file ? { ca: readPem('CA file', tls.ca_file) } : {}),
          ...(tls.cert_file ? { cert: readPem('certificate', tls.cert_file) } : {}),
          ...(tls.key_file ? { key: readPem('key', tls.key_file) } : {}),
        }
      : {}),
  };
}
