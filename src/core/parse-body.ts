import type { z } from 'zod';
import { PipitError } from './errors.ts';
import { safeParse } from '../lib/safe-parse.ts';

// Here rather than in http/: plugins that take a body on their own routes (music.spotify's
// authorization) parse it the same way, and plugins do not reach into the transports.

/**
 * Parses a JSON body with a zod schema, or throws BAD_REQUEST naming each bad field.
 *
 * @example
 * const { username } = parseBody(LoginBody, request.body);
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new PipitError(
      'BAD_REQUEST',
      'send a JSON object body with Content-Type: application/json',
    );
  }
  const result = safeParse(schema, body);
  if (result.success) return result.data;
  throw new PipitError(
    'BAD_REQUEST',
    result.error.issues
      .map((i) =>
        i.code === 'unrecognized_keys'
          ? `unknown field ${i.keys.map((k) => `"${k}"`).join(', ')}`
          : `field "${i.path.join('.')}": ${i.message}`,
      )
      .join('\n'),
    { cause: result.error },
  );
}
