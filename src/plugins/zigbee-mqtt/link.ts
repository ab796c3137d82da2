import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import mqtt from 'mqtt';
import type { IClientOptions, MqttClient } from 'mqtt';
import { PipitError } from '../api/index.ts';
import type { PluginContext, PluginStatus } from '../api/index.ts';
import { prefixOf, tlsMinVersion, usesTls } from './config.ts';
import type { ZigbeeMqttConfig } from './config.ts';
import { Network } from './network.ts';
import type { NetworkChange, Z2mDevice } from './network.ts';
import { Pending } from './pending.ts';

type Log = PluginContext<unknown>['log'];

function readPem(key: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new PipitError(
      'CONFIG_INVALID',
      `zigbee.mqtt.${key}: cannot read ${path} (${(err as Error).message}): fix the path`,
      { cause: err },
    );
  }
}

/**
 * The plugin's own connection to the broker Zigbee2MQTT publishes to: it subscribes to the whole
 * base topic, keeps the {@link Network} cache, reports changes, sends requests and waits for their
 * answers. It reconnects after a drop with exponential backoff (with jitter) and reports its link
 * with `setStatus`: connected means the broker is connected AND the bridge says it is online.
 *
 * @example
 * const link = new ZigbeeLink(config, log, setStatus, (change) => fireFor(change));
 * link.start();
 */
export class ZigbeeLink {
  readonly net = new Network();
  readonly prefix: string;
  readonly host: string;
  readonly port: number;
  readonly timeoutMs: number;
  readonly pending: Pending;
  private client: MqttClient | undefined;
  private connected = false;
  private stopped = false;
  private failures = 0;
  private retryAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastError: string | undefined;

  private readonly config: ZigbeeMqttConfig;
  private readonly log: Log;
  private readonly setStatus: (s: PluginStatus) => void;
  private readonly onChange: (change: NetworkChange) => void;

  constructor(
    config: ZigbeeMqttConfig,
    log: Log,
    setStatus: (s: PluginStatus) => void,
    onChange: (change: NetworkChange) => void,
  ) {
    this.config = config;
    this.log = log;
    this.setStatus = setStatus;
    this.onChange = onChange;
    this.prefix = prefixOf(config);
    this.host = config.host;
    this.port = config.port;
    this.timeoutMs = config.timeout * 1000;
    this.pending = new Pending(this.prefix);
  }

  /** Starts connecting in the background; an unreachable broker is retried, never thrown. */
  start(): void {
    const client = mqtt.connect(this.options());
    this.client = client;
    this.report();
    client.on('connect', () => void this.onConnect(client));
    client.on('message', (topic, payload) => this.onMessage(topic, payload));
    client.on('error', (err) => {
      // CONNACK 4 and 5 (MQTT 3.1.1): bad user name or password, not authorized.
      const code = (err as { code?: unknown }).code;
      this.lastError =
        code === 4 || code === 5
          ? `the broker refused the credentials (${err.message}): check zigbee.mqtt.username and zigbee.mqtt.password`
          : err.message;
      this.log.debug({ err }, 'zigbee.mqtt: broker connection error');
    });
    client.on('close', () => this.onClose());
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.pending.failAll(new PipitError('UNAVAILABLE', 'zigbee.mqtt: the plugin is stopping'));
    this.client?.end(true);
  }

  /** Throws UNAVAILABLE unless the broker is connected (and, with `bridge`, the bridge online). */
  ensure(what: string, bridge = true): void {
    if (!this.connected) {
      const retry = this.retryAt ? Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000)) : 0;
      throw new PipitError(
        'UNAVAILABLE',
        `${what}: the MQTT broker ${this.host}:${this.port} is not connected: ${this.lastError ?? 'connecting'}; retrying in ${retry} s`,
      );
    }
    if (bridge && this.net.bridge !== 'online')
      throw new PipitError(
        'UNAVAILABLE',
        `${what}: the Zigbee2MQTT bridge on ${this.prefix}/bridge/state is ${this.net.bridge === 'offline' ? 'offline' : 'not known yet (nothing retained on bridge/state)'}: start Zigbee2MQTT, or check topic_prefix`,
      );
  }

  /** Publishes a JSON payload under the base topic. */
  async publish(sub: string, payload: unknown): Promise<void> {
    const client = this.client;
    if (!client || !this.connected)
      throw new PipitError('UNAVAILABLE', `zigbee.mqtt: the MQTT broker is not connected`);
    await client.publishAsync(`${this.prefix}/${sub}`, JSON.stringify(payload));
  }

  /**
   * Sends `bridge/request/<name>` with a transaction id and resolves with the `data` of the
   * matching `bridge/response/<name>`; TIMEOUT after the configured time, UPSTREAM_ERROR with the
   * bridge's own error when its status is "error".
   */
  async request(name: string, payload: Record<string, unknown>, signal?: AbortSignal) {
    const transaction = `pipit-${randomBytes(4).toString('hex')}`;
    const answer = this.pending.expectResponse(name, transaction, this.timeoutMs, signal);
    try {
      await this.publish(`bridge/request/${name}`, { ...payload, transaction });
    } catch (err) {
      this.pending.cancel(transaction, err as Error);
    }
    return answer;
  }

  /**
   * Publishes to a device's `/get` or `/set` topic and resolves with its next state message
   * (holding `property` when one is given); TIMEOUT when the device says nothing in time.
   */
  async roundTrip(
    device: Z2mDevice,
    verb: 'get' | 'set',
    payload: Record<string, unknown>,
    property: string | undefined,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const next = this.pending.expectState(device, property, this.timeoutMs, signal);
    try {
      await this.publish(`${device.friendly_name}/${verb}`, payload);
    } catch (err) {
      this.pending.cancelState(next, err as Error);
    }
    return next.promise;
  }

  private options(): IClientOptions {
    const c = this.config;
    const tls = usesTls(c);
    return {
      host: c.host,
      port: c.port,
      protocol: tls ? 'mqtts' : 'mqtt',
      clientId: c.client_id ?? `pipit-zigbee-${randomBytes(4).toString('hex')}`,
      ...(c.username === undefined ? {} : { username: c.username }),
      ...(c.password === undefined ? {} : { password: c.password }),
      connectTimeout: this.timeoutMs,
      // Reconnection is this class's own, with backoff and jitter.
      reconnectPeriod: 0,
      resubscribe: false,
      clean: true,
      ...(tls
        ? {
            rejectUnauthorized: !c.tls_insecure,
            ...(c.tls_version ? { minVersion: tlsMinVersion(c.tls_version) } : {}),
            ...(c.tls_ciphers ? { ciphers: c.tls_ciphers } : {}),
            ...(c.tls_cafile ? { ca: readPem('tls_cafile', c.tls_cafile) } : {}),
            ...(c.tls_certfile ? { cert: readPem('tls_certfile', c.tls_certfile) } : {}),
            ...(c.tls_keyfile ? { key: readPem('tls_keyfile', c.tls_keyfile) } : {}),
          }
        : {}),
    };
  }

  private async onConnect(client: MqttClient): Promise<void> {
    try {
      // Everything under the base topic: the retained bridge/* topics arrive at once.
      await client.subscribeAsync(`${this.prefix}/#`, { qos: 0 });
    } catch (err) {
      this.lastError = `cannot subscribe to ${this.prefix}/#: ${(err as Error).message}`;
      this.log.warn({ err }, 'zigbee.mqtt: subscription refused');
      return;
    }
    if (this.stopped || !client.connected) return;
    this.failures = 0;
    this.retryAt = undefined;
    this.lastError = undefined;
    this.connected = true;
    this.log.info({ broker: `${this.host}:${this.port}` }, 'zigbee.mqtt: connected to the broker');
    this.report();
  }

  private onClose(): void {
    const was = this.connected;
    this.connected = false;
    if (this.stopped) return;
    if (was) this.log.warn({ broker: `${this.host}:${this.port}` }, 'zigbee.mqtt: broker lost');
    this.pending.failAll(
      new PipitError('UNAVAILABLE', `zigbee.mqtt: the connection to the MQTT broker was lost`),
    );
    if (!this.timer) {
      const base = Math.min(
        this.config.reconnect_max_seconds * 1000,
        this.config.reconnect_min_seconds * 1000 * 2 ** this.failures,
      );
      this.failures++;
      const wait = base * (0.8 + Math.random() * 0.4);
      this.retryAt = Date.now() + wait;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (!this.stopped) this.client?.reconnect();
      }, wait);
    }
    this.report();
  }

  private onMessage(topic: string, raw: Buffer): void {
    if (!topic.startsWith(`${this.prefix}/`)) return;
    const sub = topic.slice(this.prefix.length + 1);
    const text = raw.toString('utf8');
    // A cleared retained topic is an empty payload.
    if (!text) return;
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // Older bridges publish plain words (bridge/state `online`).
    }
    let changes: NetworkChange[] = [];
    if (sub === 'bridge/state') {
      changes = this.net.onState(payload);
      if (changes.length) this.report();
    } else if (sub === 'bridge/devices') changes = this.net.onDevices(payload);
    else if (sub === 'bridge/groups') this.net.groups = Array.isArray(payload) ? payload : [];
    else if (sub === 'bridge/event') changes = this.net.onEvent(payload);
    else if (sub.startsWith('bridge/response/'))
      this.pending.onResponse(sub.slice('bridge/response/'.length), payload);
    else if (!sub.startsWith('bridge/')) {
      const device = this.net.find(sub);
      if (!device || device.friendly_name !== sub) return;
      changes = this.net.onDeviceState(device, payload);
      this.pending.onState(device, payload);
    }
    for (const change of changes) this.onChange(change);
  }

  private report(): void {
    const where = `${this.host}:${this.port}`;
    if (!this.connected) {
      const retry = this.retryAt ? Math.ceil((this.retryAt - Date.now()) / 1000) : undefined;
      this.setStatus({
        connected: false,
        detail: `broker ${where} not connected${this.lastError ? `: ${this.lastError}` : ''}${retry === undefined ? '' : `; retrying in ${retry} s`}`,
      });
      return;
    }
    this.setStatus({
      connected: this.net.bridge === 'online',
      detail: `broker ${where} connected; bridge ${this.net.bridge === 'unknown' ? 'state not known yet' : this.net.bridge}`,
    });
  }
}
