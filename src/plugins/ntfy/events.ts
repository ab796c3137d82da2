import { z } from '../api/index.ts';

/**
 * The fields of Platypush's `NotificationEvent` (platypush/message/event/ntfy.py), with null
 * where the message has none; `url` is ntfy's `click`.
 */
export const NotificationEvent = z.object({
  id: z.string().describe("ntfy's message ID"),
  topic: z.string().describe('the topic the message came on'),
  message: z.string().nullable().describe('the text'),
  title: z.string().nullable().describe('the title'),
  priority: z.number().int().nullable().describe('1 (min) to 5 (max); null: default'),
  time: z.number().nullable().describe('when it was published (UNIX time, seconds)'),
  tags: z.array(z.string()).nullable().describe('its tags'),
  url: z.string().nullable().describe('what tapping it opens (ntfy: click)'),
  actions: z
    .array(z.record(z.string(), z.unknown()))
    .nullable()
    .describe('its action buttons, as ntfy sends them'),
  attachment: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('its attachment: name, url (and type, size, expires when uploaded)'),
});

/** A message of ntfy's JSON stream ("JSON message format", docs.ntfy.sh/subscribe/api/). */
export interface StreamMessage {
  id: string;
  time: number;
  event: string;
  topic: string;
  message?: string;
  title?: string;
  priority?: number;
  tags?: string[];
  click?: string;
  actions?: Array<Record<string, unknown>>;
  attachment?: Record<string, unknown>;
}

/**
 * The event's fields of a stream `message`, as Platypush builds them.
 *
 * @example
 * toEventFields({ id: 'a', time: 1, event: 'message', topic: 't', message: 'hi', click: 'https://x' });
 * // { id: 'a', topic: 't', message: 'hi', url: 'https://x', title: null, ... }
 */
export function toEventFields(m: StreamMessage): z.input<typeof NotificationEvent> {
  return {
    id: m.id,
    topic: m.topic,
    message: m.message ?? null,
    title: m.title ?? null,
    priority: m.priority ?? null,
    time: m.time,
    tags: m.tags ?? null,
    url: m.click ?? null,
    actions: m.actions ?? null,
    attachment: m.attachment ?? null,
  };
}
