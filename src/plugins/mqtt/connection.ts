import type { IPublishPacket, MqttClient } from 'mqtt';
import { PipitError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { clientOptions, connectClient } from './broker.ts';
import type { BrokerOptions } from './broker.ts';

/**
 * What a caller learns when a broker it named cannot be reached, whatever the cause (refused,
 * unreachable, timed out, not MQTT, credentials refused): the same words for all.
 */
export const UNREACHABLE =
  'no MQTT broker there accepted a connection from this client (the service log has the cause)';

/** MQTT's quality of service levels. */
export type QoS = 0 | 1 | 2;

/** Where a connection stands. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'stopped';

/** A message received on a connection. */
export type MessageHandler = (
  conn: MqttConnection,
  topic: string,
  payload: Buffer,
  packet: IPublishPacket,
) => void;

/**
 * Turns Nagle's algorithm off on the client's socket: a small publish answering a message otherwise
 * waits for the acknowledgement of the previous one (measured: p50 2.5 ms instead of 1.4 ms on
 * loopback at 1,000 messages/s).
 *
 * @example
 * client.on('connect', () => noDelay(client));
 */
export function noDelay(client: MqttClient): void {
  (client.stream as unknown as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
}

/**
 * A long-lived connection to one broker: connects in the background, reconnects after a drop with
 * exponential backoff (`reconnectMinMs` doubling up to `reconnectMaxMs`, with jitter), subscribes
 * again to every topic after each reconnection (it is `connected` only once the broker has
 * acknowledged them), and keeps counters for `mqtt.status`.
 *
 * @example
 * const conn = new MqttConnection(broker, { reconnectMinMs: 1000, reconnectMaxMs: 30000 }, onMessage, log);
 * conn.start();
 * await conn.subscribe('home/#', 1);
 */
export class MqttConnection {
  state: ConnectionState = 'connecting';
  readonly broker: BrokerOptions;
  readonly subscriptions = new Map<string, QoS>();
  lastError: string | undefined;
  connectedAt: number | undefined;
  reconnects = 0;
  received = 0;
  published = 0;
  private client: MqttClient | undefined;
  private readonly backoff: { reconnectMinMs: number; reconnectMaxMs: number };
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly onMessage: MessageHandler;
  private readonly log: Logger;
  private readonly opaqueErrors: boolean;

  /**
   * With `opaqueErrors` (a broker named in a call), connection errors show as one message in
   * `last_error` whatever their cause, so a caller cannot tell a closed port from an open one;
   * the service log keeps the cause.
   */
  constructor(
    broker: BrokerOptions,
    backoff: { reconnectMinMs: number; reconnectMaxMs: number },
    onMessage: MessageHandler,
    log: Logger,
    opts: { opaqueErrors?: boolean } = {},
  ) {
    this.broker = broker;
    this.backoff = backoff;
    this.onMessage = onMessage;
    this.log = log;
    this.opaqueErrors = opts.opaqueErrors ?? false;
  }

  /**
   * Starts connecting in the background; never throws for an unreachable broker (it retries), only
   * for unusable settings (a TLS file that cannot be read).
   */
  start(): void {
    const options = clientOptions(this.broker);
    void connectClient(options).then(
      (client) => this.attach(client),
      (err: unknown) => {
        this.lastError = (err as Error).message;
        this.log.error({ err }, 'cannot load the MQTT client');
      },
    );
  }

  private attach(client: MqttClient): void {
    if (this.state === 'stopped') {
      client.end(true);
      return;
    }
    this.client = client;
    client.on('connect', () => void this.onConnect(client));
    client.on('message', (topic, payload, packet) => {
      this.received++;
      this.onMessage(this, topic, payload, packet);
    });
    client.on('error', (err) => {
      this.lastError = this.opaqueErrors ? UNREACHABLE : err.message;
      this.log[this.opaqueErrors ? 'warn' : 'debug'](
        { err, broker: this.describe() },
        'MQTT connection error',
      );
    });
    client.on('close', () => this.onClose());
  }

  private async onConnect(client: MqttClient): Promise<void> {
    this.failures = 0;
    noDelay(client);
    try {
      if (this.subscriptions.size) await this.subscribeAll(client);
    } catch (err) {
      this.lastError = (err as Error).message;
      this.log.warn({ err, broker: this.describe() }, 'could not subscribe again after connecting');
    }
    if (this.state === 'stopped' || !client.connected) return;
    if (this.connectedAt !== undefined) this.reconnects++;
    this.state = 'connected';
    this.connectedAt = Date.now();
    this.log.info(
      { broker: this.describe(), topics: [...this.subscriptions.keys()] },
      'MQTT connected',
    );
    for (const wake of [...this.waiters]) wake();
  }

  private onClose(): void {
    if (this.state === 'stopped') return;
    if (this.state === 'connected')
      this.log.warn({ broker: this.describe() }, 'MQTT connection lost; reconnecting');
    this.state = this.connectedAt === undefined ? 'connecting' : 'reconnecting';
    if (this.timer) return;
    const base = Math.min(
      this.backoff.reconnectMaxMs,
      this.backoff.reconnectMinMs * 2 ** this.failures,
    );
    this.failures++;
    const wait = base * (0.8 + Math.random() * 0.4);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.state === 'stopped' || !this.client) return;
      // Keep the stores: QoS 1 and 2 messages in flight are sent again on the new connection.
      this.client.reconnect({
        incomingStore: this.client.incomingStore,
        outgoingStore: this.client.outgoingStore,
      });
    }, wait);
  }

  private async subscribeAll(client: MqttClient): Promise<void> {
    const map: Record<string, { qos: QoS }> = {};
    for (const [topic, qos] of this.subscriptions) map[topic] = { qos };
    const granted = await client.subscribeAsync(map);
    const refused = granted.filter((g) => g.qos === 128).map((g) => g.topic);
    if (refused.length)
      this.lastError = `the broker refused the subscription to ${refused.join(', ')}`;
  }

  /** "mqtt://host:port", for messages. */
  describe(): string {
    return `${this.broker.host}:${this.broker.port}`;
  }

  /**
   * Resolves once connected; after `timeoutMs` rejects with UNAVAILABLE naming the broker, its state
   * and the last error.
   */
  whenConnected(timeoutMs: number, what: string): Promise<void> {
    if (this.state === 'connected') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(
          new PipitError(
            'UNAVAILABLE',
            `${what}: not connected to the MQTT broker ${this.describe()} (${this.state}${this.lastError ? `; last error: ${this.lastError}` : ''}) after ${timeoutMs / 1000} s: check that it runs and accepts this client`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(wake);
    });
  }

  /**
   * Subscribes (now when connected, and again after every reconnection); resolves with the QoS the
   * broker granted, or undefined while not connected.
   */
  async subscribe(topic: string, qos: QoS, action: string): Promise<QoS | undefined> {
    this.subscriptions.set(topic, qos);
    if (this.state !== 'connected' || !this.client) return undefined;
    const [grant] = await this.client.subscribeAsync(topic, { qos });
    if (grant?.qos === 128) {
      this.subscriptions.delete(topic);
      throw new PipitError(
        'UPSTREAM_ERROR',
        `${action}: the broker ${this.describe()} refused the subscription to ${JSON.stringify(topic)}`,
      );
    }
    return grant?.qos;
  }

  /** Unsubscribes; false when the topic was not subscribed. */
  async unsubscribe(topic: string): Promise<boolean> {
    if (!this.subscriptions.delete(topic)) return false;
    if (this.state === 'connected' && this.client) await this.client.unsubscribeAsync(topic);
    return true;
  }

  /** Publishes once connected (waiting up to `timeoutMs`); QoS 1 and 2 resolve on the broker's acknowledgement. */
  async publish(
    topic: string,
    payload: string | Buffer,
    opts: { qos: QoS; retain: boolean },
    timeoutMs: number,
    what: string,
  ): Promise<void> {
    await this.whenConnected(timeoutMs, what);
    const client = this.client!;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new PipitError(
              'TIMEOUT',
              `${what}: the broker ${this.describe()} did not acknowledge the message within ${timeoutMs / 1000} s (it may still be delivered after a reconnection)`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      await Promise.race([client.publishAsync(topic, payload, opts), timeout]);
      this.published++;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Disconnects for good. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.client?.endAsync(true).catch(() => undefined);
  }

  /** What `mqtt.status` shows. */
  status(): Record<string, unknown> {
    return {
      state: this.state,
      host: this.broker.host,
      port: this.broker.port,
      client_id: this.broker.clientId,
      tls: Boolean(this.broker.tls),
      subscriptions: [...this.subscriptions].map(([topic, qos]) => ({ topic, qos })),
      connected_since:
        this.state === 'connected' && this.connectedAt ? this.connectedAt / 1000 : null,
      reconnects: this.reconnects,
      received: this.received,
      published: this.published,
      last_error: this.lastError ?? null,
    };
  }
}
