import { actionsFor, secret, secretUserinfo, z } from '../api/index.ts';
import { DEFAULT_RETRY_ON, MAX_BACKOFF_SECONDS } from './retry.ts';
import { httpCall } from './request.ts';
import type { HttpState } from './state.ts';

const action = actionsFor<HttpState>();

/** The methods there is an action for. */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** The parameters every method action takes. */
export const requestParams = {
  // Credentials in the address (http://user:password@host/) are masked in the run history.
  url: secretUserinfo(z.string().min(1).describe('the address, http:// or https://')),
  params: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('query-string parameters, added to the address (a list repeats the key)'),
  headers: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .describe('request headers, e.g. {"Accept": "application/json"}'),
  json: z.unknown().optional().describe('a body sent as JSON (Content-Type: application/json)'),
  data: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .optional()
    .describe('a body: an object is sent as an HTML form (urlencoded), a string as it is'),
  timeout: z
    .number()
    .positive()
    .max(3600)
    .optional()
    .describe(
      'seconds one attempt may take, redirects and body included (default: http.timeout_seconds, 30)',
    ),
  auth: secret(
    z
      .union([
        z.tuple([z.string(), z.string()]),
        z.strictObject({ username: z.string(), password: z.string() }),
        z.strictObject({ bearer: z.string().min(1) }),
      ])
      .optional()
      .describe(
        'credentials: ["user", "password"] or {username, password} (HTTP Basic), or {bearer: token}',
      ),
  ),
  username: z
    .string()
    .optional()
    .describe("HTTP Basic user name (Platypush's form; auth is the same)"),
  password: secret(z.string().optional().describe('HTTP Basic password, with username')),
  raise_for_status: z
    .boolean()
    .default(true)
    .describe('make a status of 400 or more an error (false: return it like any response)'),
  allow_redirects: z
    .boolean()
    .default(true)
    .describe('follow redirects (false: return the 3xx response itself)'),
  max_redirects: z
    .number()
    .int()
    .min(0)
    .max(50)
    .optional()
    .describe('redirects followed before failing (default: http.max_redirects, 10)'),
  retries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe(
      'retries after a network error, a timeout or a status in retry_on (POST included: make sure it is safe to repeat)',
    ),
  backoff: z
    .number()
    .min(0)
    .max(MAX_BACKOFF_SECONDS)
    .default(1)
    .describe(
      'seconds before the first retry, doubled for each next one; a Retry-After header wins',
    ),
  retry_on: z
    .array(z.number().int().min(100).max(599))
    .default(DEFAULT_RETRY_ON)
    .describe('statuses that are retried when retries > 0'),
  output: z
    .enum(['auto', 'text', 'json', 'binary'])
    .default('auto')
    .describe(
      'body as: auto (JSON when the response is JSON, text, else base64), text, json, or binary (base64)',
    ),
};

const RESULT = z
  .object({
    status: z.number(),
    headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    body: z.unknown(),
    url: z.string(),
    body_encoding: z.literal('base64').optional(),
  })
  .describe(
    '{status, headers (lower-case names), body, url (after redirects), body_encoding when base64}',
  );

function methodAction(method: (typeof METHODS)[number]) {
  const name = method.toLowerCase();
  return action({
    name,
    summary: `Sends an HTTP ${method} request and returns {status, headers, body}, the body parsed when it is JSON.`,
    description:
      'A status of 400 or more is an error unless raise_for_status is false. Redirects are followed (at most http.max_redirects). The body may be at most http.max_response_bytes (10 MiB by default); one attempt may take at most timeout seconds (30 by default). Retries are off unless "retries" is set.',
    params: requestParams,
    result: RESULT,
    run: (args, { state, signal }) =>
      httpCall({ ...args, action: `http.${name}`, method }, state, signal),
  });
}

/** http.get, http.post, ... one action per method. */
export const methodActions = METHODS.map(methodAction);

/** http.request: any method, named by an argument. */
export const request = action({
  name: 'request',
  summary:
    'Sends an HTTP request with the method given as an argument; otherwise as http.get and the others.',
  params: {
    method: z.enum(METHODS).default('GET').describe('the HTTP method'),
    ...requestParams,
  },
  result: RESULT,
  run: ({ method, ...args }, { state, signal }) =>
    httpCall({ ...args, action: 'http.request', method }, state, signal),
});
