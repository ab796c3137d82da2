import { defineAction, z } from '../api/index.ts';
import type { HaState } from './link.ts';
import type { HomeAssistantState } from './state.ts';
import { domainOf, unknownEntity } from './state.ts';

const StateOut = z
  .looseObject({
    entity_id: z.string(),
    state: z.string(),
    attributes: z.record(z.string(), z.unknown()),
    last_changed: z.string(),
    last_updated: z.string(),
  })
  .describe("an entity's state, as Home Assistant gives it");

async function fetchStates(state: unknown, signal: AbortSignal): Promise<HaState[]> {
  return (await (state as HomeAssistantState).link.request(
    { type: 'get_states' },
    signal,
  )) as HaState[];
}

/** `homeassistant.get_states`: every entity's state, or one domain's. */
export const getStates = defineAction({
  name: 'get_states',
  summary: "The states of Home Assistant's entities, optionally of one domain.",
  params: {
    domain: z
      .string()
      .min(1)
      .optional()
      .describe('only entities of this domain, e.g. light or binary_sensor'),
  },
  result: z.array(StateOut),
  run: async ({ domain }, { state, signal }) => {
    const states = await fetchStates(state, signal);
    return domain ? states.filter((s) => s.entity_id.startsWith(`${domain}.`)) : states;
  },
});

/** `homeassistant.get_state`: one entity's state; NOT_FOUND names an unknown entity. */
export const getState = defineAction({
  name: 'get_state',
  summary: "One Home Assistant entity's state.",
  params: { entity_id: z.string().min(1).describe('the entity, e.g. binary_sensor.front_door') },
  result: StateOut,
  run: async ({ entity_id }, { state, signal }) => {
    domainOf(entity_id);
    const states = await fetchStates(state, signal);
    const found = states.find((s) => s.entity_id === entity_id);
    if (!found)
      unknownEntity(
        entity_id,
        states.map((s) => s.entity_id),
      );
    return found;
  },
});
