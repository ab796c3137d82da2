import { z } from 'zod';
import { isSecretSchema } from '../core/action.ts';
import type { PluginDef } from '../core/action.ts';
import { PipitError } from '../core/errors.ts';
import { preview } from '../core/validate.ts';
import { didYouMean } from '../lib/suggest.ts';

// How a section of the configuration is checked and its mistakes worded, for the core keys and
// every plugin's section alike (load.ts, and plugins/catalog.ts for plugins loaded afterwards).

// The keys a (strict) object schema accepts at `path`, for "did you mean" on an unknown one.
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let at: unknown = schema;
  const unwrap = () => {
    for (let def = (at as { _zod?: { def?: { innerType?: unknown } } })._zod?.def; def?.innerType;)
      def = (at = def.innerType) && (at as { _zod?: { def?: { innerType?: unknown } } })._zod?.def;
  };
  unwrap();
  for (const key of path) {
    at = (at as { shape?: Record<string, unknown> }).shape?.[String(key)];
    unwrap();
  }
  return Object.keys((at as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
}

function issueText(
  source: string,
  prefix: string,
  issue: z.core.$ZodIssue,
  root: unknown,
  schema: z.ZodType,
): string {
  let value: unknown = root;
  for (const k of issue.path)
    value =
      value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[k] : undefined;
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(schema, issue.path);
    return `${source}: ${path || '(top level)'}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${didYouMean(issue.keys[0]!, known)}${known.length ? ` (known: ${known.join(', ')})` : ''}`;
  }
  const got = isSecretAt(schema, issue.path) ? 'a value (not shown: it is secret)' : preview(value);
  return `${source}: ${path}: ${issue.message}; got ${got}`;
}

// A key marked secret() (a password, an engine URL with one) is never quoted back in a message,
// as argument errors do (core/validate.ts).
function isSecretAt(schema: z.ZodType, path: readonly PropertyKey[]): boolean {
  let at: unknown = schema;
  for (const key of path) {
    let def = (at as { _zod?: { def?: { innerType?: unknown } } })._zod?.def;
    for (; def?.innerType; def = (at as { _zod?: { def?: { innerType?: unknown } } })._zod?.def)
      at = def.innerType;
    at = (at as { shape?: Record<string, unknown> }).shape?.[String(key)];
    if (!at) return false;
    if (isSecretSchema(at as z.ZodType)) return true;
  }
  return false;
}

/**
 * Parses `value` with `schema`, or throws CONFIG_INVALID with one line per problem: the file, the
 * key path under `prefix`, what was expected and the value found ("did you mean" for unknown keys).
 *
 * @example
 * parseOrThrow(CoreConfig, core, '/etc/pipit/config.yaml', '');
 */
export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  value: unknown,
  source: string,
  prefix: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const text = result.error.issues
    .map((i) => issueText(source, prefix, i, value, schema))
    .join('\n');
  throw new PipitError('CONFIG_INVALID', text, { cause: result.error });
}

/**
 * Validates one plugin's section as {@link loadConfig} does, for a plugin whose definition was
 * loaded after the configuration (plugins/catalog.ts): same defaults, same error messages.
 *
 * @example
 * const config = parsePluginSection(shellPlugin, { allow: ['uptime'] }, '/etc/pipit/config.yaml');
 */
export function parsePluginSection(def: PluginDef, value: unknown, source: string): unknown {
  try {
    return parseOrThrow(def.config ?? z.strictObject({}), value, source, def.name);
  } catch (err) {
    if (!def.from || !(err instanceof PipitError)) throw err;
    // A package's settings are documented by the package: say which one, and where.
    throw new PipitError(
      'CONFIG_INVALID',
      `${err.message}\n(the settings of plugin package ${def.from.package}@${def.from.version}: see its README in ${def.from.path})`,
      { cause: err },
    );
  }
}
