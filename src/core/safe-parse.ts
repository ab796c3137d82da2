import { z } from 'zod';

/**
 * `schema.safeParse(value)` that never throws. Zod can throw on hostile values instead of
 * reporting an issue (e.g. a length check stringifying `{length: [{toString: ""}]}`); such a value
 * is reported as one issue at the top, so that every caller answers BAD_REQUEST, not 500.
 *
 * @example
 * const result = safeParse(Request, raw);
 * if (!result.success) console.log(result.error.issues[0].message);
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
          path: [],
          message:
            'a field holds a value of the wrong type (an object or a list where text or a number is expected)',
          input: value,
        },
      ]),
    } as z.ZodSafeParseResult<z.output<T>>;
  }
}
