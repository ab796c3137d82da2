import type { PipitEvent } from '../events/event.ts';

/** What a script hook receives: the event's fields, the whole event, and (for web hooks) a way to answer. */
export type ScriptEvent = Record<string, unknown> & {
  /** The fully qualified kind. */
  type: string;
  /** The event message as published. */
  event: PipitEvent;
  /** Web hooks: answers the HTTP client with a body, status (default 200) and headers. */
  sendResponse(body: unknown, status?: number, headers?: Record<string, string>): void;
  /** Platypush's spelling of {@link ScriptEvent.sendResponse}. */
  send_response(body: unknown, status?: number, headers?: Record<string, string>): void;
};

/** A registration made by a script while it loads. */
export type ScriptRegistration =
  | {
      kind: 'procedure';
      name: string;
      params: string[];
      fn: (args: Record<string, unknown>) => unknown;
    }
  | {
      kind: 'hook';
      event: string;
      filter: Record<string, unknown>;
      fn: (event: ScriptEvent) => unknown;
      name?: string | undefined;
      once?: boolean | undefined;
    }
  | {
      kind: 'cron';
      expression: string;
      fn: () => unknown;
      name?: string | undefined;
      timezone?: string | undefined;
      once?: boolean | undefined;
    };

// On globalThis so that a script importing Pipit through another path (dist vs src, a symlinked
// package) still registers into the same list as the loader reads.
const KEY = Symbol.for('pipit.scripts.pending');
type Holder = { [KEY]?: ScriptRegistration[] };

/** Takes (and clears) what scripts registered since the last call. */
export function drainRegistrations(): ScriptRegistration[] {
  const holder = globalThis as Holder;
  const list = holder[KEY] ?? [];
  holder[KEY] = [];
  return list;
}

function register(entry: ScriptRegistration): void {
  const holder = globalThis as Holder;
  (holder[KEY] ??= []).push(entry);
}

/**
 * Declares a procedure, reachable as `procedure.<name>` from every transport. Its return value is
 * the output; throwing fails the call with the error's message.
 *
 * @example
 * procedure('greet', async ({ name }) => ({ text: `Hello, ${name}` }));
 * procedure('greet', ['name'], async ({ name }) => ...); // with declared arguments (for the UI)
 */
export function procedure(
  name: string,
  paramsOrFn: string[] | ((args: Record<string, unknown>) => unknown),
  maybeFn?: (args: Record<string, unknown>) => unknown,
): void {
  const fn = typeof paramsOrFn === 'function' ? paramsOrFn : maybeFn;
  if (typeof fn !== 'function')
    throw new TypeError(`procedure("${name}"): the last argument must be a function`);
  register({ kind: 'procedure', name, params: Array.isArray(paramsOrFn) ? paramsOrFn : [], fn });
}

/**
 * Declares a hook on an event kind (short or full name), with a condition (the same matching as
 * YAML `if:`; null for none). For a WebhookEvent, the returned value is the HTTP response. In a
 * cluster it runs on every instance that loads it, or with `once: true` on one per event.
 *
 * @example
 * hook('WebhookEvent', { hook: 'door' }, (event) => {
 *   if (event.headers['x-token'] !== process.env.HOOK_TOKEN) return event.sendResponse('Unauthorized', 401);
 *   return { ok: true };
 * });
 */
export function hook(
  event: string,
  filter: Record<string, unknown> | null,
  fn: (event: ScriptEvent) => unknown,
  opts: { name?: string; once?: boolean } = {},
): void {
  if (typeof fn !== 'function')
    throw new TypeError(`hook("${event}"): the last argument must be a function`);
  register({ kind: 'hook', event, filter: filter ?? {}, fn, name: opts.name, once: opts.once });
}

/**
 * Declares a cron job. The expression is read as a YAML `cron_expression` is: 5 fields
 * (`min hour day month weekday`), or 6 with the seconds LAST, as in Platypush (croner's own order,
 * seconds first, is not used): `'* * * * * *\/3'` is every 3 seconds, while `'*\/3 * * * * *'`
 * is every second of the minutes divisible by 3. In a cluster it runs on every instance that loads
 * it, or with `once: true` on one per scheduled time.
 *
 * @example
 * cron('0 23 * * *', () => run('music.spotify.pause'), { name: 'nightly', timezone: 'Europe/Rome' });
 * cron('0 * * * * 30', () => run('utils.echo'), { name: 'half-past-every-minute' }); // hh:mm:30
 */
export function cron(
  expression: string,
  fn: () => unknown,
  opts: { name?: string; timezone?: string; once?: boolean } = {},
): void {
  if (typeof fn !== 'function')
    throw new TypeError(`cron("${expression}"): the second argument must be a function`);
  register({
    kind: 'cron',
    expression,
    fn,
    name: opts.name,
    timezone: opts.timezone,
    once: opts.once,
  });
}
