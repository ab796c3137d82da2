import type { IPublishPacket } from 'mqtt';
import type { Logger } from '../../core/logger.ts';
import type { Services } from '../../core/services.ts';
import { eventKindsOf } from '../api/head.ts';
import { head } from './head.ts';
import type { MqttConnection } from './connection.ts';
import { decodePayload } from './payload.ts';
import { topicMatches } from './topics.ts';

const MQTT_MESSAGE_EVENT = eventKindsOf(head).MQTTMessageEvent;
/**
 * Makes the handler that turns each received message into an `MQTTMessageEvent`: `topic`, `msg`
 * (parsed JSON when it is JSON), `qos`, `retain`, `host`, `port`, and `subscription`, the first
 * subscribed filter that the topic matches (so a hook can match `subscription: home/+/temperature`).
 *
 * @example
 * const conn = new MqttConnection(broker, backoff, messageToEvent(services, log, 1 << 20), log);
 */
export function messageToEvent(services: Services, log: Logger, maxBytes: number) {
  return (conn: MqttConnection, topic: string, payload: Buffer, packet: IPublishPacket): void => {
    if (payload.length > maxBytes) {
      log.warn(
        { topic, bytes: payload.length, limit: maxBytes },
        'MQTT message over mqtt.max_message_bytes dropped',
      );
      return;
    }
    let subscription: string | null = null;
    for (const filter of conn.subscriptions.keys()) {
      if (topicMatches(filter, topic)) {
        subscription = filter;
        break;
      }
    }
    const { msg, encoding } = decodePayload(payload);
    services.events
      .emit(MQTT_MESSAGE_EVENT, {
        topic,
        msg,
        ...(encoding ? { encoding } : {}),
        qos: packet.qos,
        retain: packet.retain,
        host: conn.broker.host,
        port: conn.broker.port,
        subscription,
      })
      .catch((err: unknown) => log.warn({ err, topic }, 'could not publish an MQTTMessageEvent'));
  };
}
