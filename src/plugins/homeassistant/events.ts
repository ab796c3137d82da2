import { z } from '../api/index.ts';
import type { HaEvent } from './session.ts';

const State = z
  .looseObject({
    entity_id: z.string().describe('the entity, e.g. binary_sensor.front_door'),
    state: z.string().describe("the state, e.g. 'on', 'off', '21.5', 'unavailable'"),
    attributes: z.record(z.string(), z.unknown()).optional().describe('the attributes'),
  })
  .describe("an entity's state as Home Assistant sends it");

/** The events the plugin raises, for its manifest. */
export const EVENTS = {
  HomeAssistantStateChangedEvent: z.object({
    entity_id: z.string().describe('the entity whose state changed'),
    domain: z.string().describe('the entity id before the dot: light, binary_sensor...'),
    old_state: State.nullable().describe('the state before (null: the entity is new)'),
    new_state: State.nullable().describe('the state now (null: the entity was removed)'),
  }),
  HomeAssistantEvent: z.object({
    event_type: z.string().describe('the Home Assistant event type'),
    data: z.record(z.string(), z.unknown()).describe("the event's data"),
    origin: z.string().describe('LOCAL or REMOTE'),
    time_fired: z.string().describe('when Home Assistant fired it (ISO 8601)'),
  }),
};

/**
 * The Pipit event for a Home Assistant event: `[kind, fields]`, or undefined when its type is not
 * one the configuration forwards.
 *
 * @example
 * toPipitEvent(event, new Set(['state_changed'])); // ['HomeAssistantStateChangedEvent', {...}]
 */
export function toPipitEvent(
  event: HaEvent,
  forwarded: ReadonlySet<string>,
): [string, Record<string, unknown>] | undefined {
  if (!forwarded.has(event.event_type)) return undefined;
  if (event.event_type === 'state_changed') {
    const data = event.data as { entity_id?: unknown; old_state?: unknown; new_state?: unknown };
    if (typeof data.entity_id !== 'string') return undefined;
    return [
      'HomeAssistantStateChangedEvent',
      {
        entity_id: data.entity_id,
        domain: data.entity_id.split('.')[0],
        old_state: data.old_state ?? null,
        new_state: data.new_state ?? null,
      },
    ];
  }
  return [
    'HomeAssistantEvent',
    {
      event_type: event.event_type,
      data: event.data ?? {},
      origin: event.origin,
      time_fired: event.time_fired,
    },
  ];
}
