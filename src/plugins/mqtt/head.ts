import { z } from 'zod';
import { definePluginHead } from '../api/head.ts';

const MQTTMessageEvent = z.object({
  topic: z.string().describe('the topic the message was published on'),
  msg: z.unknown().describe('the payload: parsed JSON, text, or base64 (see encoding)'),
  encoding: z.literal('base64').optional().describe('set when the payload was not UTF-8 text'),
  qos: z.number().describe('the QoS it was delivered with'),
  retain: z.boolean().describe('whether the broker kept it as the retained message'),
  host: z.string().describe("the broker's host"),
  port: z.number().describe("the broker's port"),
  subscription: z.string().nullable().describe('the topic filter that matched it'),
});

/**
 * `mqtt`'s facts, for the plugin and the catalog: on by default, and the event each message
 * received on a subscription becomes.
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions: [publish] });
 */
export const head = definePluginHead({
  name: 'mqtt',
  enabledByDefault: true,
  events: { MQTTMessageEvent },
});
