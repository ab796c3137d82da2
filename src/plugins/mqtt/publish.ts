import type { MqttClient } from 'mqtt';
import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { clientOptions, connectClient } from './broker.ts';
import type { BrokerOptions } from './broker.ts';
import { UNREACHABLE } from './connection.ts';
import { decodePayload, encodePayload } from './payload.ts';
import { brokerParams, mqttAction, QosParam, resolveBroker } from './params.ts';
import { checkPublishTopic, checkTopicFilter, topicMatches } from './topics.ts';

const publishParams = {
  topic: z.string().min(1).describe('the topic, e.g. "home/kitchen/light" (no wildcards)'),
  msg: z.unknown().describe('the message: a string as it is, anything else as JSON'),
  qos: QosParam.default(0).describe(
    '0 at most once, 1 at least once (waits for PUBACK), 2 exactly once',
  ),
  retain: z
    .boolean()
    .default(false)
    .describe('the broker keeps it and gives it to later subscribers'),
  reply_topic: z
    .string()
    .min(1)
    .optional()
    .describe('wait for a message on this topic after publishing, and return it'),
  timeout: z
    .number()
    .positive()
    .max(600)
    .optional()
    .describe('seconds to wait for the broker (and for the reply) (default: mqtt.timeout, 10)'),
  ...brokerParams,
};

// One-off connection to another broker (or for a reply): connect, act, disconnect. For a broker
// named in the call (`opaque`), every way of failing to connect reads the same, so the call
// cannot tell a closed port from an open one; the cause goes to `opaque`, the service log.
async function withClient<T>(
  broker: BrokerOptions,
  timeoutMs: number,
  what: string,
  opaque: Logger | undefined,
  fn: (client: MqttClient) => Promise<T>,
): Promise<T> {
  const client = await connectClient(clientOptions({ ...broker, connectTimeoutMs: timeoutMs }));
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', (err) => reject(err));
      client.once('close', () =>
        reject(new Error(`connection closed (is it listening on ${broker.host}:${broker.port}?)`)),
      );
    });
  } catch (err) {
    client.end(true);
    const where = `${broker.host}:${broker.port}`;
    opaque?.warn({ err, broker: where }, `${what}: cannot connect to the MQTT broker`);
    throw new PipitError(
      'UNAVAILABLE',
      `${what}: cannot connect to the MQTT broker ${where}: ${opaque ? UNREACHABLE : (err as Error).message}`,
      { cause: err },
    );
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PipitError(
            'TIMEOUT',
            `${what}: the broker ${broker.host}:${broker.port} did not answer within ${timeoutMs / 1000} s`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([fn(client), late]);
  } finally {
    clearTimeout(timer);
    await client.endAsync().catch(() => undefined);
  }
}

function waitForReply(
  client: MqttClient,
  filter: string,
  timeoutMs: number,
  what: string,
  maxBytes: number,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('message', onMessage);
      reject(
        new PipitError(
          'TIMEOUT',
          `${what}: no reply on ${JSON.stringify(filter)} within ${timeoutMs / 1000} s`,
        ),
      );
    }, timeoutMs);
    // reply_topic may be a filter with wildcards: the reply is the first message it matches.
    const onMessage = (topic: string, payload: Buffer) => {
      if (!topicMatches(filter, topic)) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      if (payload.length > maxBytes) {
        reject(
          new PipitError(
            'UPSTREAM_ERROR',
            `${what}: the reply on ${JSON.stringify(topic)} is ${payload.length} bytes, over mqtt.max_message_bytes (${maxBytes}); raise that limit in the configuration to accept it`,
          ),
        );
        return;
      }
      resolve(decodePayload(payload).msg);
    };
    client.on('message', onMessage);
  });
}

export const publish = mqttAction({
  name: 'publish',
  summary: 'Publishes a message to a topic, on the configured broker or on one named by host/port.',
  description:
    "With reply_topic, subscribes to it first and returns the first message that arrives there (Platypush's request/response pattern). Returns {topic, host, port, qos, retain} otherwise.",
  params: publishParams,
  run: async (args, { state }) => {
    const what = 'mqtt.publish';
    checkPublishTopic(what, args.topic);
    if (args.reply_topic) checkTopicFilter(what, args.reply_topic);
    const timeoutMs = (args.timeout ?? state.config.timeout) * 1000;
    const payload = encodePayload(args.msg);
    const opts = { qos: args.qos, retain: args.retain };
    const target = resolveBroker(state, args, what);
    const broker = 'conn' in target ? target.conn.broker : target.broker;
    const done = {
      topic: args.topic,
      host: broker.host,
      port: broker.port,
      qos: args.qos,
      retain: args.retain,
    };
    if (!args.reply_topic && 'conn' in target) {
      await target.conn.publish(args.topic, payload, opts, timeoutMs, what);
      return done;
    }
    const reply = args.reply_topic;
    const oneOff =
      'conn' in target
        ? { ...broker, clientId: `${broker.clientId}-r${Date.now() % 1e6}` }
        : broker;
    const opaque = 'conn' in target ? undefined : state.log;
    return withClient(oneOff, timeoutMs, what, opaque, async (client) => {
      let replied: Promise<unknown> | undefined;
      if (reply) {
        await client.subscribeAsync(reply, { qos: 1 });
        replied = waitForReply(client, reply, timeoutMs, what, state.config.max_message_bytes);
        // It may settle (an oversized reply: rejected) while the publish below is still awaited;
        // it is awaited after that, so its rejection is not an unhandled one meanwhile.
        replied.catch(() => {});
      }
      await client.publishAsync(args.topic, payload, opts);
      return replied ? { ...done, reply: await replied } : done;
    });
  },
});

export const sendMessage = mqttAction({
  ...publish,
  name: 'send_message',
  summary: "Platypush's older name for mqtt.publish: the same action.",
});
