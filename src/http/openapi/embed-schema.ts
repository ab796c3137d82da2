import { z } from 'zod';
import { componentKey } from './names.ts';
import type { JsonSchema } from './types.ts';

/** A schema ready for the document, and the `$defs` it had, now components of their own. */
export interface EmbeddedSchema {
  schema: JsonSchema;
  /** Component key → schema: the former `$defs`, referenced as `#/components/schemas/<key>`. */
  defs: Record<string, JsonSchema>;
}

const DEFS = '#/$defs/';

function decodePointerToken(token: string): string {
  return decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * The component key of a former `$defs` entry: `Def.<key of its schema>.<name>`. No other kind of
 * component starts with `Def.`, so these cannot collide with an action's.
 *
 * @example
 * defKey('Args.utils.echo', 'Node'); // 'Def.Args.utils.echo.Node'
 */
export function defKey(key: string, name: string): string {
  return componentKey(`Def.${key}`, name);
}

// A pointer within the schema made by z.toJSONSchema (`#`, `#/$defs/X...`, `#/properties/...`)
// would point into the document's root once embedded: it now names the component it points to.
function rewriteRef(ref: string, key: string): string {
  if (ref === '#') return `#/components/schemas/${key}`;
  if (ref.startsWith(DEFS)) {
    const rest = ref.slice(DEFS.length);
    const slash = rest.indexOf('/');
    const name = decodePointerToken(slash < 0 ? rest : rest.slice(0, slash));
    return `#/components/schemas/${defKey(key, name)}${slash < 0 ? '' : rest.slice(slash)}`;
  }
  if (ref.startsWith('#/')) return `#/components/schemas/${key}${ref.slice(1)}`;
  return ref;
}

// A secret parameter (`secret: true`, from core/action's `secret()`): write-only, and a password
// field where it is text, so that generated clients and forms mask it.
function markSecret(node: JsonSchema): void {
  node.writeOnly = true;
  const branches = [node.anyOf, node.oneOf].flatMap((v): unknown[] => (Array.isArray(v) ? v : []));
  for (const s of [node, ...branches])
    if (s && typeof s === 'object' && (s as JsonSchema).type === 'string')
      (s as JsonSchema).format ??= 'password';
}

// The keywords of draft 2020-12 whose values are schemas, lists of schemas or maps of schemas: only
// these are walked, so that data (`default`, `const`, `examples`) is never taken for a schema.
const ONE = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
];
const ONE_MORE = ['unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];

function walk(value: unknown, key: string): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  const node = value as JsonSchema;
  if (typeof node.$ref === 'string') node.$ref = rewriteRef(node.$ref, key);
  if (node.secret === true) markSecret(node);
  for (const k of [...ONE, ...ONE_MORE]) walk(node[k], key);
  for (const k of LISTS) if (Array.isArray(node[k])) for (const s of node[k]) walk(s, key);
  for (const k of MAPS) {
    const map = node[k];
    if (map && typeof map === 'object') for (const s of Object.values(map)) walk(s, key);
  }
}

/**
 * Makes a JSON Schema from `z.toJSONSchema` (the catalog's) fit to sit in the document as the
 * component `key`, on a copy: no `$schema` (the document's dialect applies), its `$defs` moved out
 * to components of their own ({@link defKey}) and its internal `$ref`s rewritten to match, and
 * secret parameters marked `writeOnly` with `format: password` (their `secret: true` stays).
 *
 * @example
 * const { schema, defs } = embedSchema(catalogAction.params, 'Args.mqtt.publish');
 * schema.properties.password; // { type: 'string', secret: true, writeOnly: true, format: 'password', ... }
 */
export function embedSchema(source: JsonSchema, key: string): EmbeddedSchema {
  const schema = structuredClone(source);
  delete schema.$schema;
  const rawDefs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  delete schema.$defs;
  walk(schema, key);
  const defs: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(rawDefs)) {
    walk(def, key);
    defs[defKey(key, name)] = def;
  }
  return { schema, defs };
}

/**
 * The JSON Schema of a zod schema, embedded with {@link embedSchema} as the component `key`: for the
 * wire messages and route bodies, which are zod schemas too (`io` as in `z.toJSONSchema`: `input`
 * for what a client sends, `output` for what it receives).
 *
 * @example
 * zodSchema(Request, 'input', 'ExecuteRequest').schema.required; // ['type', 'action']
 */
export function zodSchema(schema: z.ZodType, io: 'input' | 'output', key: string): EmbeddedSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return embedSchema(json, key);
}
