import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { safeParse } from '../lib/safe-parse.ts';

// A random per-process prefix and a counter: unique like a UUID within and across processes, but
// without drawing entropy on every response (ids are identifiers, not secrets).
const ID_PREFIX = randomUUID().replaceAll('-', '').slice(0, 20);
let idCounter = 0;

/**
 * A new hex identifier for responses and events (32 hex characters, as Platypush sends).
 *
 * @example
 * newId(); // '9e65a3c8b60048f95512000000000001'
 */
export function newId(): string {
  idCounter = (idCounter + 1) % 0x1000000000000;
  return ID_PREFIX + idCounter.toString(16).padStart(12, '0');
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

/**
 * The `id` of a request message that may be malformed, so that even its error response can be
 * correlated by the client.
 *
 * @example
 * requestIdOf({ id: 7, action: 42 }); // '7'
 */
export function requestIdOf(raw: unknown): string | undefined {
  if (raw && typeof raw === 'object' && 'id' in raw) {
    const { id } = raw;
    if ((typeof id === 'string' && id.length <= 128) || typeof id === 'number') return String(id);
  }
  return undefined;
}

const ACTION_PATTERN = /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)+$/;

/**
 * Parses a request message. The common, well-formed case is checked by hand (the same rules as
 * {@link Request}); anything else goes through the schema, whose messages explain what is wrong.
 *
 * @example
 * parseRequestMessage({ type: 'request', action: 'utils.echo' }); // { success: true, data: {...} }
 */
export function parseRequestMessage(raw: Record<string, unknown>): z.ZodSafeParseResult<Request> {
  const { type, action, args, id, target } = raw;
  if (
    (type === 'request' || type === 'requests') &&
    typeof action === 'string' &&
    action.length >= 3 &&
    action.length <= 256 &&
    ACTION_PATTERN.test(action) &&
    (args === undefined || (args !== null && typeof args === 'object' && !Array.isArray(args))) &&
    (id === undefined || (typeof id === 'string' && id.length <= 128)) &&
    target === undefined &&
    Object.keys(raw).length <= 4
  ) {
    const data: Request = { type, action };
    if (args !== undefined) data.args = args as Record<string, unknown>;
    if (id !== undefined) data.id = id;
    return { success: true, data };
  }
  const parsed = safeParse(Request, raw);
  // zod rebuilds records by assignment: a `__proto__` key in args would become the object's
  // prototype. Keep the client's own object (JSON.parse made `__proto__` an own key of it).
  if (parsed.success && parsed.data.args !== undefined)
    parsed.data.args = raw.args as Record<string, unknown>;
  return parsed;
}

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
 * Builds a response message; no output becomes `{success: true}` (what clients expect), or
 * `{success: false}` when there are errors (as Platypush answers).
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
