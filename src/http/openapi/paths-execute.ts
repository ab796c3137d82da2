import { ERROR_STATUSES, errorRefs } from './error-responses.ts';
import { jsonContent } from './names.ts';
import { USER_WRITE } from './security.ts';
import type { OpenApiPaths } from './types.ts';

/**
 * `POST /execute`: one request message in, one response message out. Its body is `ActionRequest`
 * (one schema per action and procedure, see catalog-schemas.ts); every error status of the error
 * table may answer it, with the response message as body.
 *
 * @example
 * executePaths()['/execute'].post.operationId; // 'execute'
 */
export function executePaths(): OpenApiPaths {
  return {
    '/execute': {
      post: {
        operationId: 'execute',
        tags: ['actions'],
        summary: 'Run an action or a procedure',
        description:
          'Runs the action or procedure the request message names, with its arguments checked ' +
          'against its schema first. 200 when the request was understood and run — an action that ' +
          'ran and failed is still 200, with `response.errors` set (JSON-RPC style); otherwise the ' +
          'status of the error (400 bad message or arguments, 404 unknown action or procedure, ' +
          '401 credentials, 412 no user yet, 413 body too large, 415 not JSON, 429 throttled...). ' +
          'Token and Basic callers may send the JSON without a Content-Type; a browser session ' +
          'must send application/json and its X-CSRF-Token.',
        security: USER_WRITE,
        requestBody: { required: true, content: jsonContent('ActionRequest') },
        responses: {
          '200': {
            description:
              'The request was run: `response.output` is the output (see Result.<action>), ' +
              '`response.errors` is empty, or says why the action failed.',
            content: jsonContent('ResponseMessage'),
          },
          ...errorRefs(ERROR_STATUSES),
        },
      },
    },
  };
}
