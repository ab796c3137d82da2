import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { ZodType } from 'zod';
import type { z } from 'zod';
import { parseBody } from '../../core/parse-body.ts';

type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

/**
 * Checks a route's body, query and path parameters with their zod schemas, and answers as every
 * other Pipit route: BAD_REQUEST naming each bad field (`field "password": must not be empty`,
 * `unknown field "x"`), through the app's error handler. `parseBody` rather than the type
 * provider's own compiler: zod can throw on a hostile value instead of reporting it, which the
 * latter would answer with a 500, and its messages would not be Pipit's.
 *
 * @example
 * app.setValidatorCompiler(validatorCompiler);
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, method, url }) => {
  // Refused when the app is made, not at the first request: a route's schemas are zod here.
  if (!(schema instanceof ZodType))
    throw new TypeError(`${method} ${url}: route schemas are zod schemas (see src/http/wire/)`);
  return (data) => {
    try {
      return { value: parseBody(schema, data) };
    } catch (err) {
      return { error: err as Error };
    }
  };
};

/**
 * Writes a route's answers with their zod schemas (fastify-type-provider-zod's): fields a schema
 * does not list are left out, and an answer that does not fit its schema is a 500 (logged), never
 * sent. Only object answers are serialised; a route that sends text (already JSON) is not.
 *
 * @example
 * app.setSerializerCompiler(serializerCompiler);
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = zodSerializerCompiler;

// A compiler that compiles nothing: fastify then neither checks that part nor serialises that answer.
const none = (() => undefined) as unknown as FastifySchemaCompiler<unknown> &
  FastifySerializerCompiler<unknown>;

/**
 * Route options for a route whose schemas only document it: nothing checked, nothing serialised
 * (`POST /execute` parses and writes its own messages on the hot path; web hooks take anything).
 *
 * @example
 * scope.post('/execute', { schema: executeSchema, ...documentationOnly }, handler);
 */
export const documentationOnly = { validatorCompiler: none, serializerCompiler: none };

/**
 * Route options that check only some parts of the request (the others are documented only: e.g. a
 * form login's `redirect`, which falls back to `/` rather than failing).
 *
 * @example
 * forms.post('/login', { schema: loginSchema, ...validating('body') }, handler);
 */
export function validating(...parts: HttpPart[]): {
  validatorCompiler: FastifySchemaCompiler<unknown>;
} {
  return {
    validatorCompiler: (route) =>
      parts.includes(route.httpPart as HttpPart)
        ? validatorCompiler({ ...route, schema: route.schema as z.ZodType })
        : none(route),
  };
}
