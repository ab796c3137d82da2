import { defineAction, z } from '../api/index.ts';
import type { HomeAssistantState } from './state.ts';
import { domainOf, unknownEntity } from './state.ts';

const Result = z
  .object({
    context: z.record(z.string(), z.unknown()).describe('the context Home Assistant gave the call'),
    response: z.unknown().describe('the service response (null unless return_response)'),
  })
  .describe("Home Assistant's result of the call");

const entityIds = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
  .describe('the target entity, or a list of them, e.g. light.kitchen');

/** `homeassistant.call_service`: any service of any domain. */
export const callService = defineAction({
  name: 'call_service',
  summary: 'Calls a Home Assistant service (action), e.g. light.turn_on.',
  params: {
    domain: z.string().min(1).describe('the service domain, e.g. light, notify, script'),
    service: z.string().min(1).describe('the service, e.g. turn_on, send_message'),
    entity_id: entityIds.optional(),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('the service data, e.g. {brightness_pct: 50}'),
    return_response: z
      .boolean()
      .optional()
      .describe('ask for the response of a service that returns one (e.g. weather.get_forecasts)'),
  },
  result: Result,
  run: ({ domain, service, entity_id, data, return_response }, { state, signal }) =>
    (state as HomeAssistantState).link.request(
      {
        type: 'call_service',
        domain,
        service,
        ...(entity_id !== undefined ? { target: { entity_id } } : {}),
        ...(data ? { service_data: data } : {}),
        ...(return_response !== undefined ? { return_response } : {}),
      },
      signal,
    ),
});

// Domains whose own turn_on/turn_off/toggle services exist; any other entity goes through
// Home Assistant's generic `homeassistant.<service>`, which calls what its domain offers
// (open_cover/close_cover for a cover, the members of a group).
const OWN_ON_OFF = new Set([
  'light',
  'switch',
  'fan',
  'input_boolean',
  'automation',
  'script',
  'media_player',
  'climate',
  'humidifier',
  'remote',
  'siren',
  'water_heater',
]);

function onOff(service: 'turn_on' | 'turn_off' | 'toggle', summary: string) {
  return defineAction({
    name: service,
    summary,
    description:
      'Arguments besides entity_id are sent as service data (e.g. brightness_pct, color_name). Entities of domains without their own service go through homeassistant.' +
      service +
      '.',
    params: { entity_id: z.string().min(1).describe('the entity, e.g. light.kitchen') },
    extraArgs: true,
    result: Result,
    run: ({ entity_id, ...data }, { state, signal }) => {
      const { link } = state as HomeAssistantState;
      const domain = domainOf(entity_id);
      if (link.connected && !link.entities.has(entity_id))
        unknownEntity(entity_id, link.entities.keys());
      return link.request(
        {
          type: 'call_service',
          domain: OWN_ON_OFF.has(domain) ? domain : 'homeassistant',
          service,
          target: { entity_id },
          ...(Object.keys(data).length ? { service_data: data } : {}),
        },
        signal,
      );
    },
  });
}

export const turnOn = onOff('turn_on', 'Turns an entity on (light, switch, fan, cover...).');
export const turnOff = onOff('turn_off', 'Turns an entity off.');
export const toggle = onOff('toggle', 'Toggles an entity.');

/** `homeassistant.fire_event`: fires an event on Home Assistant's event bus. */
export const fireEvent = defineAction({
  name: 'fire_event',
  summary: "Fires an event on Home Assistant's event bus.",
  params: {
    event_type: z.string().min(1).describe('the event type, e.g. pipit_doorbell'),
    data: z.record(z.string(), z.unknown()).optional().describe("the event's data"),
  },
  result: z
    .object({ context: z.record(z.string(), z.unknown()) })
    .describe("Home Assistant's result"),
  run: ({ event_type, data }, { state, signal }) =>
    (state as HomeAssistantState).link.request(
      { type: 'fire_event', event_type, ...(data ? { event_data: data } : {}) },
      signal,
    ),
});
