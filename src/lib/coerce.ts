import type { z } from 'zod';

type Leaf = 'number' | 'boolean' | 'string' | 'other';

// Collects the leaf types a schema accepts, looking through optional/default/nullable/union/pipe,
// so that "50" is turned into 50 only where no string would be accepted anyway.
function leafTypes(schema: z.ZodType, out: Set<Leaf> = new Set(), depth = 0): Set<Leaf> {
  if (depth > 16) return out;
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })
    ._zod.def;
  switch (def.type) {
    case 'number':
    case 'int':
      out.add('number');
      break;
    case 'boolean':
      out.add('boolean');
      break;
    case 'string':
    case 'enum':
    case 'literal':
    case 'unknown':
    case 'any':
    case 'custom':
    case 'template_literal':
      out.add('string');
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      leafTypes(def.innerType as z.ZodType, out, depth + 1);
      break;
    case 'pipe':
      leafTypes(def.in as z.ZodType, out, depth + 1);
      break;
    case 'union':
      for (const option of def.options as z.ZodType[]) leafTypes(option, out, depth + 1);
      break;
    default:
      out.add('other');
  }
  return out;
}

// Schemas never change once defined: their leaf types are worked out once.
const leafCache = new WeakMap<z.ZodType, Set<Leaf>>();

const NUMBER_TEXT = /^\s*-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i;

/**
 * Applies the coercion rule to one argument (query strings, forms and the CLI carry only text): a
 * string where only a number or a boolean is accepted is converted when it reads as one ("50",
 * "2.5", "true", "false"); anything else is left for the schema to reject with a message naming the
 * argument.
 *
 * @example
 * coerceValue(z.number().default(50), '50'); // 50
 * coerceValue(z.string(), '50'); // '50'
 */
export function coerceValue(schema: z.ZodType, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  let leaves = leafCache.get(schema);
  if (!leaves) leafCache.set(schema, (leaves = leafTypes(schema)));
  if (leaves.has('string') || leaves.has('other')) return value;
  if (leaves.has('number') && NUMBER_TEXT.test(value)) return Number(value);
  if (leaves.has('boolean')) {
    const lower = value.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  return value;
}

/**
 * Coerces every declared argument of `args` against its schema in `shape` (undeclared ones untouched).
 *
 * @example
 * coerceArgs({ limit: z.number() }, { limit: '10', q: 'x' }); // { limit: 10, q: 'x' }
 */
export function coerceArgs(
  shape: Record<string, z.ZodType>,
  args: Record<string, unknown>,
): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(args)) {
    const value = args[key];
    if (typeof value !== 'string' || !Object.hasOwn(shape, key)) continue;
    const coerced = coerceValue(shape[key]!, value);
    // Copied only when something changes: most requests need no coercion at all.
    if (coerced !== value) (out ??= { ...args })[key] = coerced;
  }
  return out ?? args;
}
