import { errorRefs } from './error-responses.ts';
import { schemaRef } from './names.ts';
import { ANONYMOUS } from './security.ts';
import type { OpenApiObject, OpenApiPaths } from './types.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const WITH_BODY = new Set<string>(['post', 'put', 'patch']);

const parameters = [
  {
    in: 'path',
    name: 'name',
    required: true,
    description: 'the hook name a listener is registered for',
    schema: { type: 'string', pattern: '^[\\w.-]{1,128}$' },
  },
  {
    in: 'query',
    name: 'args',
    required: false,
    style: 'form',
    explode: true,
    description: 'any query parameters: the event carries them as `args`',
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  },
];

const requestBody = {
  required: false,
  description:
    'Any body (size-limited): JSON is parsed, a form becomes an object, anything else is text; ' +
    'the event carries it as `data`.',
  content: {
    'application/json': { schema: {} },
    'application/x-www-form-urlencoded': {
      schema: { type: 'object', additionalProperties: true },
    },
    '*/*': { schema: { type: 'string' } },
  },
};

function operation(method: string): OpenApiObject {
  return {
    operationId: `hook${method[0]!.toUpperCase()}${method.slice(1)}`,
    tags: ['hooks'],
    summary: `Raise a WebhookEvent (${method.toUpperCase()}) and answer with its listener's reply`,
    description:
      'Unauthenticated by design: the listener decides (check a header or a secret in it). The ' +
      'answer is what the listener (a script hook or a YAML `event.hook` naming this hook) returns ' +
      '— objects as JSON, strings as text — or what it sends with `sendResponse(body, status, ' +
      'headers)`. Credentials in headers are redacted before /ws/events subscribers see the event.',
    security: ANONYMOUS,
    parameters,
    ...(WITH_BODY.has(method) ? { requestBody } : {}),
    responses: {
      '200': {
        description: "The listener's answer: JSON for an object, text for a string.",
        content: {
          'application/json': { schema: {} },
          'text/plain': { schema: { type: 'string' } },
        },
      },
      '204': { description: 'The listener finished without an answer.' },
      ...errorRefs([400, 413]),
      '404': {
        description: 'NOT_FOUND: no listener is registered for this hook name.',
        content: { 'application/json': { schema: schemaRef('ResponseMessage') } },
      },
      '500': {
        description: 'INTERNAL: the listener failed (details only in the service log).',
        content: { 'application/json': { schema: schemaRef('ResponseMessage') } },
      },
      '504': {
        description: 'TIMEOUT: no answer within backend.http.hook_timeout_seconds (30 by default).',
        content: { 'application/json': { schema: schemaRef('ResponseMessage') } },
      },
      default: {
        description: 'The status, headers and body the listener chose with sendResponse.',
      },
    },
  };
}

/**
 * `/hook/{name}` with GET, POST, PUT, PATCH and DELETE (routes/hook.ts): the web hook envelope.
 *
 * @example
 * hookPaths()['/hook/{name}'].post.operationId; // 'hookPost'
 */
export function hookPaths(): OpenApiPaths {
  return {
    '/hook/{name}': Object.fromEntries(METHODS.map((m) => [m, operation(m)])),
  };
}
