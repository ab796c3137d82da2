import { isPlainObject } from '../../procedures/values.ts';
import type { Services } from '../../core/services.ts';
import { makeEvent } from '../../events/event.ts';
import type { PipitEvent } from '../../events/event.ts';
import { CoreKinds } from '../../events/kinds.ts';
import { kindMatches } from '../../events/match.ts';
import type { Hook } from '../../events/hooks.ts';

/**
 * The event `automations.test` fires at a hook: the one given (its `type` defaults to the hook's
 * kind), else the newest event of that kind this instance saw, else an empty one of that kind. A
 * web hook's is a call of `/hook/<name>` with no arguments unless given.
 *
 * @example
 * sampleEvent(services, hook, { subtype: 'door' }).args; // {type: 'pipit.message.event.custom.CustomEvent', subtype: 'door'}
 */
export function sampleEvent(services: Services, hook: Hook, given: unknown): PipitEvent {
  const written = hook.condition?.type;
  const kind = resolveKind(
    services,
    typeof written === 'string' && written.trim() ? written.trim() : CoreKinds.CustomEvent,
  );
  const origin = services.deviceId;
  if (isPlainObject(given)) {
    const { type, ...fields } = given;
    const as = typeof type === 'string' ? resolveKind(services, type) : kind;
    return makeEvent(as, webhookDefaults(hook, fields), origin);
  }
  if (hook.webhook === undefined) {
    const seen = services.events.recent
      .last(Number.MAX_SAFE_INTEGER)
      .reverse()
      .find((d) => kindMatches(kind, d.event.args.type));
    if (seen) {
      const { type, ...fields } = seen.event.args;
      return makeEvent(type, fields, origin);
    }
  }
  return makeEvent(kind, webhookDefaults(hook, {}), origin);
}

function webhookDefaults(hook: Hook, fields: Record<string, unknown>): Record<string, unknown> {
  if (hook.webhook === undefined) return fields;
  return { method: 'POST', args: {}, data: null, headers: {}, ...fields, hook: hook.webhook };
}

// A condition may name its kind by a dotted suffix (`custom.CustomEvent`), which the kinds' resolve
// does not take: the known kind it ends is meant.
function resolveKind(services: Services, name: string): string {
  const kinds = services.events.kinds;
  try {
    return kinds.resolve(name);
  } catch (err) {
    const known = kinds.list().find((fq) => kindMatches(name, fq));
    if (known) return known;
    throw err;
  }
}
