import { randomBytes } from 'node:crypto';

/** The context Home Assistant attaches to states, events and results. */
export interface HaContext {
  id: string;
  parent_id: string | null;
  user_id: string | null;
}

/** One entity's state, as `get_states` and `state_changed` events carry it. */
export interface HaState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
  context: HaContext;
}

/** A fresh context, with a 32-hex-digit id like Home Assistant's. */
export function newContext(userId: string | null = null): HaContext {
  return { id: randomBytes(16).toString('hex'), parent_id: null, user_id: userId };
}

/** Home Assistant's timestamp format: ISO 8601 with microseconds and `+00:00`. */
export function haTime(date = new Date()): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

/** What the emulator starts with: a few lights, switches, a door sensor and an input_boolean. */
export const DEFAULT_ENTITIES: ReadonlyArray<{
  entity_id: string;
  state: string;
  attributes?: Record<string, unknown>;
}> = [
  { entity_id: 'light.kitchen', state: 'off', attributes: { friendly_name: 'Kitchen' } },
  { entity_id: 'light.bed_light', state: 'off', attributes: { friendly_name: 'Bed Light' } },
  { entity_id: 'switch.coffee_maker', state: 'off', attributes: { friendly_name: 'Coffee' } },
  { entity_id: 'input_boolean.guest_mode', state: 'off', attributes: { friendly_name: 'Guests' } },
  { entity_id: 'cover.garage_door', state: 'closed', attributes: { friendly_name: 'Garage' } },
  {
    entity_id: 'binary_sensor.front_door',
    state: 'off',
    attributes: { device_class: 'door', friendly_name: 'Front door' },
  },
  {
    entity_id: 'sensor.outside_temperature',
    state: '12.5',
    attributes: { unit_of_measurement: '°C', friendly_name: 'Outside' },
  },
];

/** A change of one entity: what a `state_changed` event carries (`new_state` null: removed). */
export interface StateChange {
  entity_id: string;
  old_state: HaState | null;
  new_state: HaState | null;
}

/**
 * The state machine: entity id → state. `set` keeps `last_changed` when only attributes change,
 * as Home Assistant does.
 *
 * @example
 * const states = new EntityStates(DEFAULT_ENTITIES);
 * states.set('binary_sensor.front_door', 'on'); // { entity_id, old_state, new_state }
 */
export class EntityStates {
  readonly #states = new Map<string, HaState>();

  constructor(initial: ReadonlyArray<{ entity_id: string; state: string; attributes?: object }>) {
    for (const e of initial) this.set(e.entity_id, e.state, { ...e.attributes });
  }

  all(): HaState[] {
    return [...this.#states.values()].map((s) => structuredClone(s));
  }

  get(entityId: string): HaState | undefined {
    const state = this.#states.get(entityId);
    return state && structuredClone(state);
  }

  set(
    entityId: string,
    state: string,
    attributes?: Record<string, unknown>,
    context: HaContext = newContext(),
  ): StateChange {
    const old = this.#states.get(entityId) ?? null;
    const now = haTime();
    const next: HaState = {
      entity_id: entityId,
      state,
      attributes: attributes ?? { ...old?.attributes },
      last_changed: old && old.state === state ? old.last_changed : now,
      last_updated: now,
      context,
    };
    this.#states.set(entityId, next);
    return {
      entity_id: entityId,
      old_state: old && structuredClone(old),
      new_state: structuredClone(next),
    };
  }

  remove(entityId: string): StateChange | undefined {
    const old = this.#states.get(entityId);
    if (!old) return undefined;
    this.#states.delete(entityId);
    return { entity_id: entityId, old_state: old, new_state: null };
  }
}
