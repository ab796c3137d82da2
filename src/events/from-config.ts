import type { UserSection } from '../config/load.ts';
import { PipitError } from '../core/errors.ts';
import type { Services } from '../core/services.ts';
import { actionsUsed } from '../procedures/actions-used.ts';
import { parseSteps } from '../procedures/dsl.ts';
import { stepExecutor } from '../procedures/executor.ts';
import { runSteps } from '../procedures/runner.ts';
import { isPlainObject } from '../procedures/values.ts';
import type { Hook, HookResponse } from './hooks.ts';
import { CoreKinds, EventKinds } from './kinds.ts';
import { compileCondition, kindMatches } from './match.ts';
import { compileBindings } from './phrase.ts';
import type { EventPredicate } from './match.ts';
import type { Step } from '../procedures/dsl.ts';

/**
 * The pseudo-action a YAML web-hook listener uses to answer explicitly:
 * `- action: hook.send_response` with `args: {body, status, headers}`.
 */
export const SEND_RESPONSE_ACTION = 'hook.send_response';

/**
 * Turns send_response arguments into a response, with clear errors for bad ones.
 *
 * @example
 * toHookResponse({ body: 'Unauthorized', status: 401 }); // { body: 'Unauthorized', status: 401, headers: {} }
 */
export function toHookResponse(args: Record<string, unknown>): HookResponse {
  const status = args.status ?? 200;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${SEND_RESPONSE_ACTION}: "status" must be an HTTP status from 100 to 599; got ${JSON.stringify(status)}`,
    );
  }
  const headers = args.headers ?? {};
  if (!isPlainObject(headers) || Object.values(headers).some((v) => typeof v !== 'string')) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${SEND_RESPONSE_ACTION}: "headers" must map header names to strings`,
    );
  }
  return { body: args.body, status, headers: headers as Record<string, string> };
}

/**
 * `{webhook: name}` when a hook's condition listens to one web hook (`type: WebhookEvent, hook:
 * name`), for the warning about two listeners on one web hook; `{}` otherwise.
 *
 * @example
 * webhookOf({ type: 'WebhookEvent', hook: 'door' }); // { webhook: 'door' }
 */
export function webhookOf(condition: Record<string, unknown>): { webhook?: string } {
  const { type, hook } = condition;
  return typeof type === 'string' &&
    kindMatches(type.trim(), CoreKinds.WebhookEvent) &&
    typeof hook === 'string'
    ? { webhook: hook }
    : {};
}

// Pipit's own kinds, for a check made without a service; a service's also knows the kinds its
// plugins declare (built-in or packages), which hooks may name by their short names too.
const CONDITION_KINDS = new EventKinds();

/**
 * Compiles a YAML `event.hook.<name>: {if: {...}, then: [...], once?}` section. The hook's steps
 * see the event's fields as variables (and the whole event as `event`). It runs on every instance
 * of a cluster that defines it, or, with `once: true`, on one of them per event.
 *
 * @example
 * events.hooks.add(hookFromConfig(section, () => services));
 */
export function hookFromConfig(section: UserSection, services: () => Services): Hook {
  const name = section.key.slice('event.hook.'.length);
  const fail = (what: string, cause?: unknown): never => {
    throw new PipitError('CONFIG_INVALID', `${section.source}: ${section.key}: ${what}`, { cause });
  };
  if (!name) fail('the hook needs a name after "event.hook."');
  if (!isPlainObject(section.value))
    fail('expected a mapping with "if" (the condition) and "then" (the steps)');
  const { if: condition, then, once, ...rest } = section.value as Record<string, unknown>;
  if (Object.keys(rest).length)
    fail(
      `unknown key${Object.keys(rest).length > 1 ? 's' : ''} ${Object.keys(rest)
        .map((k) => `"${k}"`)
        .join(', ')}; a hook has "if", "then" and "once"`,
    );
  if (once !== undefined && typeof once !== 'boolean')
    fail('"once" must be true (run on one instance of the cluster) or false (on each)');
  if (!isPlainObject(condition))
    fail('"if" must be a mapping such as {type: CustomEvent, subtype: door_open}');
  let matches: EventPredicate = () => false;
  let bindings: ReturnType<typeof compileBindings> = () => ({});
  let steps: Step[] = [];
  try {
    const kind = (condition as Record<string, unknown>).type;
    const kinds = (services().events as { kinds?: EventKinds } | undefined)?.kinds;
    if (typeof kind === 'string') (kinds ?? CONDITION_KINDS).checkConditionKind(kind.trim());
    matches = compileCondition(condition);
    bindings = compileBindings(condition);
    steps = parseSteps(then, `${section.key} then`);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err), err);
  }
  return {
    name,
    source: section.source,
    matches,
    calls: actionsUsed(steps).filter((c) => c.action !== SEND_RESPONSE_ACTION),
    once: once === true,
    condition: condition as Record<string, unknown>,
    ...webhookOf(condition as Record<string, unknown>),
    run: (event, ctx) => {
      const execute = stepExecutor(services(), { transport: 'hook', depth: 0, signal: ctx.signal });
      return runSteps(
        steps,
        { ...event.args, ...bindings(event.args), event: event.args },
        {
          signal: ctx.signal,
          config: (key) => services().configValue(key),
          execute: async (action, args, step) => {
            if (action !== SEND_RESPONSE_ACTION) return execute(action, args, step);
            if (!ctx.respond)
              return {
                output: null,
                errors: [`${SEND_RESPONSE_ACTION} only works in a hook on a WebhookEvent`],
              };
            ctx.respond(toHookResponse(args));
            return { output: { sent: true }, errors: [] };
          },
        },
      );
    },
  };
}
