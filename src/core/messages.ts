import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/**
 * A new random hex identifier for responses and events (32 hex characters, as Platypush sends).
 * randomUUID draws from a buffered entropy pool, several times cheaper than randomBytes per call.
 *
 * @example
 * newId(); // '9e65a3c8b60048f95512f78081e1a41f'
 */
export function newId(): string {
  return randomUUID().replaceAll('-', '');
}

/** Fractional UNIX time in seconds, the `_timestamp` of every message. */
export function unixSeconds(): number {
  return Date.now() / 1000;
}

const ActionName = z
  .string({ error: 'field "action" must be a string such as "utils.echo" or "procedure.<name>"' })
  .min(3, 'field "action" is empty: give "<plugin>.<action>" or "procedure.<name>"')
  .max(256, 'field "action" is longer than 256 characters')
  .regex(
    /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)+$/,
    'field "action" must look like "<plugin>.<action>" or "procedure.<name>"',
  );

/**
 * The request message of `POST /execute`, `/ws/requests` (where `type` is `requests`), the CLI and
 * `run()`.
 *
 * @example
 * Request.parse({ type: 'request', action: 'utils.echo', args: { text: 'hi' } });
 */
export const Request = z.object({
  type: z.enum(['request', 'requests'], {
    error: 'field "type" must be "request" (or "requests" on /ws/requests)',
  }),
  action: ActionName,
  args: z
    .record(z.string(), z.unknown(), { error: 'field "args" must be an object of named arguments' })
    .optional(),
  id: z
    .union([z.string().max(128), z.number()], { error: 'field "id" must be a string' })
    .transform(String)
    .optional(),
  target: z.string({ error: 'field "target" must be a string' }).max(128).optional(),
});
export type Request = z.output<typeof Request>;

/** Where a response is going back to: `http`, `ws`, `cli`, `library`, `cron`, `hook`. */
export type ResponseTarget = string;

/**
 * The response message: identical on every transport but for `target`.
 *
 * @example
 * const msg: ResponseMessage = buildResponse({ id: 'ab', target: 'http', origin: 'kitchen', output: 1, errors: [] });
 */
export const ResponseMessage = z.object({
  id: z.string(),
  type: z.literal('response'),
  target: z.string(),
  origin: z.string(),
  _timestamp: z.number(),
  response: z.object({ output: z.unknown(), errors: z.array(z.string()) }),
});
export type ResponseMessage = z.output<typeof ResponseMessage>;

/**
 * Builds a response message; no output becomes `{success: true}` (SPEC), or `{success: false}` when
 * there are errors (as Platypush answers).
 *
 * @example
 * buildResponse({ target: 'http', origin: 'pi', output: undefined, errors: [] }).response.output; // {success: true}
 */
export function buildResponse(opts: {
  id?: string | undefined;
  target: string;
  origin: string;
  output: unknown;
  errors: string[];
}): ResponseMessage {
  const noOutput = opts.output === undefined || opts.output === null;
  return {
    id: opts.id ?? newId(),
    type: 'response',
    target: opts.target,
    origin: opts.origin,
    _timestamp: unixSeconds(),
    response: {
      output: noOutput ? { success: opts.errors.length === 0 } : opts.output,
      errors: opts.errors,
    },
  };
}
