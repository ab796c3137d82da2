import type { z } from 'zod';

/** Whether a named schema is what clients send (`input`) or what the server answers (`output`). */
export type WireRole = 'input' | 'output';

const roles = new Map<string, WireRole>();

/**
 * A wire schema that becomes the component `id` of `/openapi.json` (`#/components/schemas/<id>`),
 * with its description. `input` schemas are described as clients send them (defaults optional),
 * `output` ones as the server answers them (no other fields). The returned schema is the one
 * routes must use: zod's `.meta()` makes a registered copy.
 *
 * @example
 * export const TokenList = named('TokenList', 'output', z.object({ tokens: z.array(TokenInfo) }));
 */
export function named<T extends z.ZodType>(
  id: string,
  role: WireRole,
  schema: T,
  description?: string,
): T {
  roles.set(id, role);
  return schema.meta({ id, ...(description ? { description } : {}) });
}

/**
 * The named wire schemas and their roles, in the order they were named.
 *
 * @example
 * wireRoles().get('AuthBody'); // 'input'
 */
export function wireRoles(): ReadonlyMap<string, WireRole> {
  return roles;
}
