/** The subset of JSON Schema (draft 2020-12, as zod's toJSONSchema writes it) the UI reads. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
}

/**
 * A short human-readable type of a schema: `string`, `integer`, `array of string`,
 * `string | null`, `"a" | "b"`; `any` when the schema does not say.
 *
 * @example
 * typeLabel({ anyOf: [{ type: 'string' }, { type: 'null' }] }) // 'string | null'
 */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return [...new Set(variants.map(typeLabel))].join(' | ');
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') return `array of ${typeLabel(schema.items)}`;
  return schema.type ?? 'any';
}

/** Lists the non-null variants of a schema (flattening anyOf/oneOf), and whether null is allowed. */
export function variantsOf(schema: JsonSchema): { variants: JsonSchema[]; nullable: boolean } {
  const raw = schema.anyOf ?? schema.oneOf;
  const list: JsonSchema[] = raw
    ? raw.flatMap((s) => variantsOf(s).variants.concat(isNull(s) ? [{ type: 'null' }] : []))
    : Array.isArray(schema.type)
      ? schema.type.map((type) => ({ ...schema, type }))
      : [schema];
  const nullable = list.some(isNull) || (schema.enum?.includes(null) ?? false);
  return { variants: list.filter((s) => !isNull(s)), nullable };
}

function isNull(schema: JsonSchema): boolean {
  return schema.type === 'null' || (schema.const === null && schema.type === undefined);
}

/** Describes a numeric or length range, e.g. `0 – 100` or `≥ 1`, or undefined when unbounded. */
export function rangeLabel(schema: JsonSchema): string | undefined {
  const min = schema.minimum ?? schema.exclusiveMinimum;
  const max = schema.maximum ?? schema.exclusiveMaximum;
  if (min !== undefined && max !== undefined) return `${min} – ${max}`;
  if (min !== undefined) return `${schema.exclusiveMinimum !== undefined ? '>' : '≥'} ${min}`;
  if (max !== undefined) return `${schema.exclusiveMaximum !== undefined ? '<' : '≤'} ${max}`;
  return undefined;
}
