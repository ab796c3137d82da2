import { z } from 'zod';
import { newId, unixSeconds } from '../core/messages.ts';

/**
 * An event message: `{type: "event", id, origin, target, _timestamp, args: {type: <kind>, ...}}`.
 * `args.type` is the fully qualified kind; the rest of `args` is the event itself.
 */
export interface PipitEvent {
  type: 'event';
  id: string;
  origin: string;
  target: string;
  _timestamp: number;
  args: { type: string } & Record<string, unknown>;
}

/**
 * What a client sends to publish an event (on /ws/events): only `args.type` is required, as in
 * Platypush; `id`, `origin`, `target` and `_timestamp` are filled in by the server.
 *
 * @example
 * IncomingEvent.parse({ type: 'event', args: { type: 'CustomEvent', subtype: 'door_open', args: {} } });
 */
export const IncomingEvent = z.object({
  type: z.literal('event', { error: 'field "type" must be "event"' }),
  args: z.looseObject(
    {
      type: z
        .string({ error: 'field "args.type" must name the event kind, e.g. "CustomEvent"' })
        .min(1)
        .max(200),
      subtype: z.string({ error: 'field "args.subtype" must be a string' }).max(200).optional(),
      args: z
        .record(z.string(), z.unknown(), { error: 'field "args.args" must be an object' })
        .optional(),
    },
    { error: 'field "args" must be an object holding the event' },
  ),
  id: z.string().max(128).optional(),
});
export type IncomingEvent = z.output<typeof IncomingEvent>;

/**
 * Builds an event message of a (fully qualified) kind.
 *
 * @example
 * makeEvent(CoreKinds.CustomEvent, { subtype: 'door_open', args: { door: 'front' } }, 'kitchen');
 */
export function makeEvent(
  kind: string,
  fields: Record<string, unknown>,
  origin: string,
  id?: string,
): PipitEvent {
  return {
    type: 'event',
    id: id ?? newId(),
    origin,
    target: origin,
    _timestamp: unixSeconds(),
    args: { ...fields, type: kind },
  };
}
