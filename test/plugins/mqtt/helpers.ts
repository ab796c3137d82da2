import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import type { PipitEvent } from '../../../src/events/event.ts';
import type { MqttConnection } from '../../../src/plugins/mqtt/connection.ts';
import type { MqttState } from '../../../src/plugins/mqtt/state.ts';
import type { TestApp } from '../../helpers/service.ts';

export { call } from '../call.ts';

export const MQTT_EVENT = 'pipit.message.event.mqtt.MQTTMessageEvent';

/** The plugin's connection to the configured broker. */
export function mainConnection(t: TestApp): MqttConnection {
  return (t.service.registry.plugins.get('mqtt')!.state as MqttState).main!;
}

/** The plugin's connections to other brokers (opened by mqtt.subscribe with a host). */
export function otherConnections(t: TestApp): MqttConnection[] {
  return [...(t.service.registry.plugins.get('mqtt')!.state as MqttState).others.values()];
}

/** An outside MQTT client (MQTT.js), as another device on the network would be. */
export async function outsideClient(url: string): Promise<MqttClient> {
  return mqtt.connectAsync(url, {
    reconnectPeriod: 0,
    clientId: `outside-${Math.random().toString(16).slice(2, 8)}`,
  });
}

/** Resolves with the next message an outside client receives on `topic`. */
export function nextMessage(
  client: MqttClient,
  topic: string,
  ms = 10_000,
): Promise<{ payload: string; qos: number; retain: boolean }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no message on ${topic} within ${ms} ms`)), ms);
    const onMessage = (t: string, payload: Buffer, packet: { qos: number; retain: boolean }) => {
      if (t !== topic) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve({ payload: payload.toString(), qos: packet.qos, retain: packet.retain });
    };
    client.on('message', onMessage);
  });
}

/** Resolves with the next MQTTMessageEvent on `topic` that the service publishes. */
export function nextEvent(t: TestApp, topic: string, ms = 10_000): Promise<PipitEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no MQTTMessageEvent on ${topic} within ${ms} ms`));
    }, ms);
    const stop = t.service.events.subscribe(({ event }) => {
      if (event.args.type !== MQTT_EVENT || event.args.topic !== topic) return;
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}

/** Collects MQTTMessageEvent topics from now on. */
export function eventTopics(t: TestApp): { topics: string[]; stop: () => void } {
  const topics: string[] = [];
  const stop = t.service.events.subscribe(({ event }) => {
    if (event.args.type === MQTT_EVENT) topics.push(String(event.args.topic));
  });
  return { topics, stop };
}
