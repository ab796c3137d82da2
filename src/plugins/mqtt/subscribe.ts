import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { brokerKey } from './broker.ts';
import { brokerParams, mqttAction, QosParam, resolveBroker } from './params.ts';
import { checkTopicFilter } from './topics.ts';

export const subscribe = mqttAction({
  name: 'subscribe',
  summary:
    'Subscribes to a topic filter ("home/+/temperature", "home/#"): every message becomes an MQTTMessageEvent that hooks can match.',
  description:
    'Subscriptions last until mqtt.unsubscribe or a restart (list the permanent ones in mqtt.topics), and are made again after every reconnection. Naming another broker (host, port) opens a lasting connection to it. Returns {topic, qos, host, port, active}: active is false while the broker is unreachable (the subscription is made once it is back).',
  params: {
    topic: z.string().min(1).describe('the topic filter: "+" matches one level, "#" the rest'),
    qos: QosParam.default(0).describe('the highest QoS to receive messages with'),
    ...brokerParams,
  },
  run: async ({ topic, qos, ...args }, { state }) => {
    const action = 'mqtt.subscribe';
    checkTopicFilter(action, topic);
    const target = resolveBroker(state, args, action);
    let conn;
    if ('conn' in target) conn = target.conn;
    else {
      const key = brokerKey(target.broker);
      conn = state.others.get(key);
      if (!conn) {
        conn = state.connect(target.broker);
        state.others.set(key, conn);
      }
    }
    const granted = await conn.subscribe(topic, qos, action);
    return {
      topic,
      qos: granted ?? qos,
      host: conn.broker.host,
      port: conn.broker.port,
      active: granted !== undefined,
    };
  },
});

export const unsubscribe = mqttAction({
  name: 'unsubscribe',
  summary: 'Stops a subscription made by mqtt.subscribe or mqtt.topics.',
  params: {
    topic: z.string().min(1).describe('the topic filter, exactly as subscribed'),
    ...brokerParams,
  },
  run: async ({ topic, ...args }, { state }) => {
    const action = 'mqtt.unsubscribe';
    const target = resolveBroker(state, args, action);
    const key = 'conn' in target ? undefined : brokerKey(target.broker);
    const conn = 'conn' in target ? target.conn : state.others.get(key!);
    if (!conn || !(await conn.unsubscribe(topic))) {
      throw new PipitError(
        'ACTION_FAILED',
        `${action}: not subscribed to ${JSON.stringify(topic)}${conn ? ` on ${conn.describe()}` : ''} (mqtt.status lists the subscriptions)`,
      );
    }
    // A connection opened only for subscriptions closes with its last one.
    if (key && conn.subscriptions.size === 0) {
      state.others.delete(key);
      await conn.stop();
    }
    return { topic, host: conn.broker.host, port: conn.broker.port };
  },
});
