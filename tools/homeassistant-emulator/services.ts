import type { EntityStates, HaContext, StateChange } from './entities.ts';

/** A `call_service` command's fields. */
export interface ServiceCall {
  domain: string;
  service: string;
  service_data?: Record<string, unknown>;
  target?: { entity_id?: string | string[] };
  return_response?: boolean;
}

/** An error answered as `{success: false, error: {code, message}}`. */
export class HaError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const ON_OFF = new Set(['light', 'switch', 'input_boolean', 'fan']);
// What `homeassistant.turn_on/off/toggle` calls for a cover (core's homeassistant/__init__.py).
const COVER = { turn_on: 'open_cover', turn_off: 'close_cover', toggle: 'toggle' } as const;

function targetIds(call: ServiceCall): string[] {
  const raw = call.target?.entity_id ?? call.service_data?.entity_id;
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : [raw]).map(String);
}

function nextState(domain: string, service: string, current: string): string | undefined {
  if (ON_OFF.has(domain)) {
    if (service === 'turn_on') return 'on';
    if (service === 'turn_off') return 'off';
    if (service === 'toggle') return current === 'on' ? 'off' : 'on';
  }
  if (domain === 'cover') {
    if (service === 'open_cover') return 'open';
    if (service === 'close_cover') return 'closed';
    if (service === 'toggle') return current === 'open' ? 'closed' : 'open';
  }
  return undefined;
}

function serviceExists(domain: string, service: string): boolean {
  if (ON_OFF.has(domain) || domain === 'homeassistant')
    return ['turn_on', 'turn_off', 'toggle'].includes(service);
  if (domain === 'cover') return ['open_cover', 'close_cover', 'toggle'].includes(service);
  return domain === 'weather' && service === 'get_forecasts';
}

/**
 * Runs a service call on the states, the way Home Assistant's services behave for the domains it
 * knows: returns the state changes (to be fired as `state_changed`) and the response. Entities
 * that do not exist are skipped, as Home Assistant does (it only logs a warning).
 *
 * @example
 * callService(states, { domain: 'light', service: 'turn_on', target: { entity_id: 'light.kitchen' } }, ctx);
 */
export function callService(
  states: EntityStates,
  call: ServiceCall,
  context: HaContext,
): { changes: StateChange[]; response: unknown } {
  const { domain, service } = call;
  if (!serviceExists(domain, service))
    throw new HaError('not_found', `Service ${domain}.${service} not found.`);
  if (domain === 'weather') {
    if (!call.return_response)
      throw new HaError(
        'service_validation_error',
        'The action requires responses and must be called with return_response=True',
      );
    return {
      changes: [],
      response: Object.fromEntries(targetIds(call).map((id) => [id, { forecast: [] }])),
    };
  }
  if (call.return_response)
    throw new HaError(
      'service_validation_error',
      "An action which does not return responses can't be called with return_response=True",
    );
  const changes: StateChange[] = [];
  const { entity_id: _ignored, ...attributes } = call.service_data ?? {};
  for (const id of targetIds(call)) {
    const current = states.get(id);
    if (!current) continue;
    const entityDomain = id.split('.')[0]!;
    let effective = service;
    if (domain === 'homeassistant')
      effective = entityDomain === 'cover' ? COVER[service as keyof typeof COVER] : service;
    else if (domain !== entityDomain) continue;
    const next = nextState(entityDomain, effective, current.state);
    if (next === undefined) continue;
    const attrs = next === 'on' ? { ...current.attributes, ...attributes } : current.attributes;
    changes.push(states.set(id, next, attrs, context));
  }
  return { changes, response: null };
}
