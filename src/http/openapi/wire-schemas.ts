import { Request, ResponseMessage } from '../../core/messages.ts';
import { zodSchema } from './embed-schema.ts';
import type { JsonSchema } from './types.ts';

/**
 * The wire messages of `POST /execute` as components, from the zod schemas every transport parses
 * with (core/messages.ts): `ExecuteRequest` (the request envelope, any action) and
 * `ResponseMessage` (the answer to every request, and the body of every error).
 *
 * @example
 * wireSchemas().ExecuteRequest.required; // ['type', 'action']
 */
export function wireSchemas(): Record<string, JsonSchema> {
  const request = zodSchema(Request, 'input', 'ExecuteRequest');
  const response = zodSchema(ResponseMessage, 'output', 'ResponseMessage');
  return {
    ...request.defs,
    ...response.defs,
    ExecuteRequest: {
      ...request.schema,
      title: 'Request message',
      description:
        'The request envelope: `action` is "<plugin>.<action>" or "procedure.<name>", `args` its ' +
        'named arguments (a string is accepted where a number or boolean is expected when it reads ' +
        'as one, e.g. "50"), `id` is echoed in the response. `type` is "request" ("requests" is ' +
        "accepted too, as on /ws/requests); `target`, when given, must be this instance's device_id.",
    },
    ResponseMessage: {
      ...response.schema,
      title: 'Response message',
      description:
        'The answer to every request, and the body of every error. `response.output` is what the ' +
        'action returned ({"success": true} when nothing; see the Result.<action> schemas), ' +
        '`response.errors` the error messages (empty on success).',
    },
  };
}
