import { Request } from '../../core/messages.ts';
import type { z } from 'zod';
import { ERROR_STATUSES } from '../openapi/error-responses.ts';
import { USER_WRITE } from '../openapi/security.ts';
import { errorAnswers, json, ResponseMessage } from './answers.ts';
import { named } from './named.ts';

/**
 * The request envelope of `POST /execute` (and of /ws/requests), any action: each action's and
 * procedure's own body (`Request.<name>`, its arguments from the catalog) extends it.
 *
 * @example
 * const body: ExecuteRequest = { type: 'request', action: 'utils.echo', args: { text: 'hi' } };
 */
export const ExecuteRequest = named(
  'ExecuteRequest',
  'input',
  Request,
  'The request envelope: `action` is "<plugin>.<action>" or "procedure.<name>", `args` its ' +
    'named arguments (a string is accepted where a number or boolean is expected when it reads ' +
    'as one, e.g. "50"), `id` is echoed in the response. `type` is "request" ("requests" is ' +
    "accepted too, as on /ws/requests); `target`, when given, must be this instance's device_id.",
);
export type ExecuteRequest = z.input<typeof ExecuteRequest>;

/**
 * The schema of `POST /execute`: documentation only (see routes/execute.ts). Its body is
 * `ActionRequest`, one schema per action and procedure the registry has now, added when the
 * document is made (openapi/document.ts); every error status may answer it.
 */
export const executeSchema = {
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
  body: ExecuteRequest,
  response: {
    200: json(
      'The request was run: `response.output` is the output (see Result.<action>), ' +
        '`response.errors` is empty, or says why the action failed.',
      ResponseMessage,
    ),
    ...errorAnswers(ERROR_STATUSES),
  },
} as const;
