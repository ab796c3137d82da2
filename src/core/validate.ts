import type { z } from 'zod';
import { coerceArgs } from '../lib/coerce.ts';
import type { CompiledAction } from './action.ts';
import { PipitError } from './errors.ts';
import { safeParse } from '../lib/safe-parse.ts';
import { isSecretSchema } from './action.ts';

/** A short, safe rendering of a value for error messages. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'nothing' : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function valueAt(args: Record<string, unknown>, path: PropertyKey[]): unknown {
  let current: unknown = args;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describeIssue(
  actionName: string,
  action: CompiledAction,
  args: Record<string, unknown>,
  issue: z.core.$ZodIssue,
): string {
  if (issue.code === 'unrecognized_keys') {
    const accepted = Object.keys(action.params);
    const list = issue.keys.map((k) => `"${k}"`).join(', ');
    return `${actionName}: unknown argument ${list}; it takes ${accepted.length ? accepted.join(', ') : 'no arguments'}`;
  }
  const path = issue.path.map(String).join('.');
  const value = valueAt(args, issue.path);
  const what = issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  const desc = action.params[String(issue.path[0])]?.description;
  const hint = desc ? ` (${desc})` : '';
  // A secret (a password) is never quoted back, not even when it has the wrong type.
  const param = action.params[String(issue.path[0])];
  const got = param && isSecretSchema(param) ? 'a value (not shown: it is secret)' : preview(value);
  return `${actionName}: argument "${path}"${hint}: ${what}; got ${got}`;
}

/**
 * Coerces and validates `args` against the action's schema. Throws INVALID_ARGUMENTS with one
 * message per problem, each naming the action, the argument, the value and what is expected.
 *
 * @example
 * const args = validateArgs('utils.sleep', action, { seconds: '1.5' }); // { seconds: 1.5 }
 */
export function validateArgs(
  actionName: string,
  action: CompiledAction,
  args: Record<string, unknown>,
): Record<string, unknown> {
  // Nothing to coerce or check (utils.echo): zod would only copy the object.
  if (action.acceptsAny) return args;
  let coerced: Record<string, unknown>;
  try {
    coerced = coerceArgs(action.params, args);
  } catch (err) {
    throw unreadableArgs(actionName, args, err);
  }
  const result = safeParse(action.schema, coerced);
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) =>
    describeIssue(actionName, action, args, issue),
  );
  throw new PipitError('INVALID_ARGUMENTS', messages.join('\n'), {
    cause: result.error,
    details: { messages },
  });
}

// Arguments that throw when read (a getter or a Proxy from an in-process caller: JSON never makes
// them): a caller's mistake, named as such, rather than an internal error.
function unreadableArgs(
  actionName: string,
  args: Record<string, unknown>,
  err: unknown,
): PipitError {
  let where = 'the arguments';
  try {
    for (const key of Object.keys(args)) {
      try {
        void args[key];
      } catch {
        where = `argument "${key}"`;
        break;
      }
    }
  } catch {
    // Not even their names can be listed: "the arguments" it is.
  }
  let reason: string;
  try {
    reason = err instanceof Error ? err.message : String(err);
  } catch {
    reason = 'what it threw cannot be shown either';
  }
  return new PipitError(
    'INVALID_ARGUMENTS',
    `${actionName}: ${where} could not be read (${reason}); pass plain values: text, numbers, booleans, lists and objects`,
    { cause: err },
  );
}
