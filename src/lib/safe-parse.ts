import { z } from 'zod';

/** Nesting followed when looking for the field that made zod throw (request → args → field). */
const MAX_CULPRIT_DEPTH = 8;

/**
 * `schema.safeParse(value)` that never throws. Zod can throw on hostile values instead of
 * reporting an issue (e.g. a length check stringifying `{length: [{toString: ""}]}`); such a value
 * is reported as one issue, at the field that holds it when the schema is an object (so that the
 * message names it), so that every caller answers BAD_REQUEST, not 500.
 *
 * @example
 * const result = safeParse(Request, raw);
 * if (!result.success) console.log(result.error.issues[0].path, result.error.issues[0].message);
 */
export function safeParse<T extends z.ZodType>(
  schema: T,
  value: unknown,
): z.ZodSafeParseResult<z.output<T>> {
  try {
    return schema.safeParse(value);
  } catch {
    return {
      success: false,
      error: new z.ZodError([
        {
          code: 'custom',
          path: culprit(schema, value, 0),
          message:
            'a field holds a value of the wrong type (an object or a list where text or a number is expected)',
          input: value,
        },
      ]),
    } as z.ZodSafeParseResult<z.output<T>>;
  }
}

// The path to the first field of an object schema whose own check throws (in a union, of the first
// option that has one); [] when there is no such field (the value as a whole is then the culprit).
function culprit(schema: z.ZodType, value: unknown, depth: number): PropertyKey[] {
  if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as z.ZodType[]) {
      const path = culprit(option, value, depth);
      if (path.length) return path;
    }
    return [];
  }
  const shape = objectShape(schema);
  if (!shape || depth >= MAX_CULPRIT_DEPTH || value === null || typeof value !== 'object')
    return [];
  for (const [key, field] of Object.entries(shape)) {
    let fieldValue: unknown;
    try {
      // Read inside the try: a getter may be what throws.
      fieldValue = (value as Record<string, unknown>)[key];
      field.safeParse(fieldValue);
    } catch {
      return [key, ...culprit(field, fieldValue, depth + 1)];
    }
  }
  return [];
}

// An object schema's shape, through the wrappers a field is commonly in (optional, nullable,
// default, readonly...: each has an inner type).
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let current: z.ZodType | undefined = schema;
  for (let i = 0; i < 4 && current; i++) {
    if (current instanceof z.ZodObject) return current.shape;
    const def: { innerType?: unknown } = current._zod.def as { innerType?: unknown };
    current = def.innerType instanceof z.ZodType ? def.innerType : undefined;
  }
  return undefined;
}
