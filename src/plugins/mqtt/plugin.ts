import { definePlugin } from '../../core/action.ts';
import { headFacts } from '../api/head.ts';
import { head } from './head.ts';
import { clientIdFor, defaultPort } from './broker.ts';
import type { BrokerOptions } from './broker.ts';
import { MqttConfig, tlsOf } from './config.ts';
import { MqttConnection } from './connection.ts';
import { messageToEvent } from './events.ts';
import { brokerHostRules } from './hosts.ts';
import { publish, sendMessage } from './publish.ts';
import type { MqttState } from './state.ts';
import { status } from './status.ts';
import { subscribe, unsubscribe } from './subscribe.ts';

/**
 * `mqtt`: publishes to and subscribes on MQTT brokers (MQTT.js); every message on a subscribed topic
 * is an `MQTTMessageEvent`. On by default; it connects at start only when `mqtt.host` is set.
 *
 * @example
 * // config.yaml: mqtt: {host: broker.lan, topics: ['home/#']}
 * await run('mqtt.publish', { topic: 'home/kitchen/light', msg: { on: true }, qos: 1 });
 */
export default definePlugin<MqttConfig, MqttState>({
  ...headFacts(head),
  // Privileged: it follows the http plugin's allow-list and names its clients after the device id.
  privileged: true,
  summary:
    'MQTT: publish, subscribe (messages become MQTTMessageEvent events for hooks), reconnection with backoff, status.',
  config: MqttConfig,
  actions: [publish, subscribe, unsubscribe, status, sendMessage],
  init: ({ config, log, services }) => {
    const tls = tlsOf(config);
    const onMessage = messageToEvent(services, log, config.max_message_bytes);
    const backoff = {
      reconnectMinMs: config.reconnect_min_seconds * 1000,
      reconnectMaxMs: Math.max(config.reconnect_min_seconds, config.reconnect_max_seconds) * 1000,
    };
    const state: MqttState = {
      config,
      tls,
      deviceId: services.deviceId,
      log,
      services,
      main: undefined,
      hostRules: brokerHostRules(config.allow_hosts, services),
      others: new Map(),
      // Brokers named in calls: their connection errors are not shown (see publish.ts).
      connect(broker: BrokerOptions) {
        const conn = new MqttConnection(broker, backoff, onMessage, log, { opaqueErrors: true });
        conn.start();
        return conn;
      },
    };
    if (config.host) {
      const main = new MqttConnection(
        {
          host: config.host,
          port: config.port ?? defaultPort(tls),
          ...(config.username === undefined ? {} : { username: config.username }),
          ...(config.password === undefined ? {} : { password: config.password }),
          tls,
          clientId: clientIdFor(config.client_id, services.deviceId),
          keepalive: config.keepalive,
          connectTimeoutMs: config.timeout * 1000,
        },
        backoff,
        onMessage,
        log,
      );
      for (const entry of config.topics) {
        const { topic, qos } =
          typeof entry === 'string' ? { topic: entry, qos: 0 as const } : entry;
        main.subscriptions.set(topic, qos);
      }
      main.start();
      state.main = main;
    }
    return state;
  },
  stop: async (state) => {
    const all = [...state.others.values(), ...(state.main ? [state.main] : [])];
    await Promise.all(all.map((conn) => conn.stop()));
  },
});
