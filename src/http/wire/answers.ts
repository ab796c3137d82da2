import { z } from 'zod';
import { ResponseMessage as CoreResponseMessage } from '../../core/messages.ts';
import { errorDescription } from '../openapi/error-responses.ts';
import { named } from './named.ts';

/**
 * The response message: the answer of `POST /execute` and the body of every error (core/messages.ts).
 *
 * @example
 * const res: ResponseMessage = await (await fetch('/execute', init)).json();
 */
export const ResponseMessage = named(
  'ResponseMessage',
  'output',
  CoreResponseMessage,
  'The answer to every request, and the body of every error. `response.output` is what the ' +
    'action returned ({"success": true} when nothing; see the Result.<action> schemas), ' +
    '`response.errors` the error messages (empty on success).',
);
export type ResponseMessage = z.output<typeof ResponseMessage>;

/**
 * `{"success": true}`: the answer of a route that has nothing else to say.
 *
 * @example
 * return { success: true } satisfies Success;
 */
export const Success = named('Success', 'output', z.object({ success: z.literal(true) }));
export type Success = z.output<typeof Success>;

/** One documented answer: a description and a JSON body (serialised with its schema). */
export interface JsonAnswer<T extends z.ZodType> {
  description: string;
  content: Record<string, { schema: T }>;
}

/**
 * An answer with a JSON body.
 *
 * @example
 * response: { 200: json('The tokens.', TokenList) }
 */
export function json<T extends z.ZodType>(description: string, schema: T): JsonAnswer<T> {
  return { description, content: { 'application/json': { schema } } };
}

/**
 * An answer without a body (204, a redirect), with the headers it carries.
 *
 * @example
 * response: { 302: noBody('Logged in: the browser goes to `redirect`.', { Location: { type: 'string' } }) }
 */
export function noBody(description: string, headers?: Record<string, unknown>): z.ZodNull {
  return z.null().meta({ description, ...(headers ? { headers } : {}) });
}

/**
 * The error answers of a route: for each status, the response message with the description of the
 * error codes that map to it (one `components.responses.Error<status>` each in the document).
 *
 * @example
 * response: { 200: json('The tokens.', TokenList), ...errorAnswers([401, 412]) }
 */
export function errorAnswers(
  statuses: readonly number[],
): Record<number, JsonAnswer<typeof ResponseMessage>> {
  return Object.fromEntries(
    statuses.map((status) => [status, json(errorDescription(status), ResponseMessage)]),
  );
}
