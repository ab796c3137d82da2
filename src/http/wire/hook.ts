import { z } from 'zod';
import { ANONYMOUS } from '../openapi/security.ts';
import { errorAnswers, json, noBody, ResponseMessage } from './answers.ts';

/** What a hook name is: the one check on the path parameter (made by the route, with its message). */
export const HOOK_NAME = /^[\w.-]{1,128}$/;

const HookParams = z.object({
  name: z.string().regex(HOOK_NAME).describe('the hook name a listener is registered for'),
});

const HookBody = z
  .unknown()
  .describe(
    'Any body (size-limited): JSON is parsed, a form becomes an object, anything else is text; ' +
      'the event carries it as `data`.',
  );

/** The methods a web hook answers. */
export const HOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The schema of `/hook/{name}` for one method: documentation only (the listener decides what comes
 * in and what goes out; routes/hook.ts).
 *
 * @example
 * hookSchema('POST').operationId; // 'hookPost'
 */
export function hookSchema(method: (typeof HOOK_METHODS)[number]) {
  const lower = method.toLowerCase();
  return {
    operationId: `hook${method[0]}${lower.slice(1)}`,
    tags: ['hooks'],
    summary: `Raise a WebhookEvent (${method}) and answer with its listener's reply`,
    description:
      'Unauthenticated by design: the listener decides (check a header or a secret in it). The ' +
      'answer is what the listener (a script hook or a YAML `event.hook` naming this hook) returns ' +
      '— objects as JSON, strings as text — or what it sends with `sendResponse(body, status, ' +
      "headers)`. Query parameters become the event's `args`, the body its `data`. Credentials in " +
      'headers are redacted before /ws/events subscribers see the event.',
    security: ANONYMOUS,
    params: HookParams,
    ...(method === 'GET' || method === 'DELETE'
      ? {}
      : {
          body: HookBody,
          consumes: ['application/json', 'application/x-www-form-urlencoded', '*/*'],
        }),
    response: {
      200: {
        description: "The listener's answer: JSON for an object, text for a string.",
        content: {
          'application/json': { schema: z.unknown() },
          'text/plain': { schema: z.string() },
        },
      },
      204: noBody('The listener finished without an answer.'),
      ...errorAnswers([400, 413]),
      404: json('NOT_FOUND: no listener is registered for this hook name.', ResponseMessage),
      500: json(
        'INTERNAL: the listener failed (details only in the service log).',
        ResponseMessage,
      ),
      504: json(
        'TIMEOUT: no answer within backend.http.hook_timeout_seconds (30 by default).',
        ResponseMessage,
      ),
      default: noBody('The status, headers and body the listener chose with sendResponse.'),
    },
  };
}
