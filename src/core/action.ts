import { z } from 'zod';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Logger } from './logger.ts';
import type { Services } from './services.ts';
import type { Caller } from './runs.ts';

/** The shape of an action's parameters: one zod schema per argument, each with `.describe()`. */
export type ParamShape = Record<string, z.ZodType>;

/** What an action's `run` receives besides its validated arguments. */
export interface ActionContext<S = unknown> {
  /** The plugin's own state, made once by its `init`. */
  state: S;
  /** A logger bound to `plugin.action`. */
  log: Logger;
  /** Shared services: store, execute, events. */
  services: Services;
  /** Aborted when the caller gives up (client gone, shutdown). */
  signal: AbortSignal;
  /** Who asked, when a transport said (a user over HTTP or WebSocket, the local CLI). */
  caller?: Caller | undefined;
}

/**
 * One action: a name, docs, a zod parameter shape and a `run`. The catalog, argument validation and
 * the UI's parameter help all come from this one definition.
 */
export interface ActionDef<P extends ParamShape = ParamShape, S = unknown, R = unknown> {
  name: string;
  summary: string;
  description?: string;
  params: P;
  /** Accept arguments not declared in `params` (passed through as-is). */
  extraArgs?: boolean;
  /** Describes the output for the catalog; not enforced at run time. */
  result?: z.ZodType;
  run(args: z.output<z.ZodObject<P>>, ctx: ActionContext<S>): R | Promise<R>;
}

/** An action with its compiled argument schema, as the registry holds it. */
export interface CompiledAction<S = unknown> extends ActionDef<ParamShape, S> {
  schema: z.ZodObject;
  /** No declared parameters and `extraArgs`: any object of arguments is valid as it is. */
  acceptsAny: boolean;
}

/**
 * Defines an action of a plugin without state.
 *
 * @example
 * const echo = defineAction({
 *   name: 'echo',
 *   summary: 'Returns its text.',
 *   params: { text: z.string().describe('what to send back') },
 *   run: ({ text }) => ({ text }),
 * });
 */
export function defineAction<P extends ParamShape, R>(
  def: ActionDef<P, unknown, R>,
): ActionDef<P, unknown, R> {
  return def;
}

/**
 * Returns a `defineAction` bound to a plugin's state type, for plugins whose `init` builds state.
 *
 * @example
 * const action = actionsFor<{ client: Client }>();
 * const next = action({ name: 'next', summary: 'Skips.', params: {}, run: (_a, { state }) => state.client.next() });
 */
export function actionsFor<S>() {
  return <P extends ParamShape, R>(def: ActionDef<P, S, R>): ActionDef<P, S, R> => def;
}

/** What a plugin's `init` receives. */
export interface PluginInitContext<C> {
  config: C;
  log: Logger;
  services: Services;
}

/**
 * A plugin: a named set of actions, an optional config schema (its YAML section), and an optional
 * `init` that builds the state its actions share and a `stop` that releases it.
 */
export interface PluginDef<C = unknown, S = unknown> {
  name: string;
  aliases?: string[];
  summary: string;
  /** Schema of the plugin's config section; an empty section parses as `{}`. */
  config?: z.ZodType<C>;
  /** Core plugins are enabled without a config section. */
  enabledByDefault?: boolean;
  /**
   * Said when the plugin is called while it is off (no config section): what enabling it means and
   * how. Without it the message only says to add a `<name>:` section.
   */
  disabledHint?: string;
  // Actions are stored type-erased: their argument types are enforced where they are defined.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  actions: ActionDef<any, S, any>[];
  /** Where a plugin package came from (absent for Pipit's own plugins). */
  from?: { package: string; version: string; path: string };
  /** Why the plugin could not be loaded (a package that threw at import): its calls answer 503. */
  failed?: string;
  /** The full names of the event kinds the plugin raises, known before it raises one. */
  eventKinds?: readonly string[];
  /**
   * Whether it needs more than a plugin package gets (the store, other plugins): the run history
   * and the catalog do. Said here so that it is visible; only built-in plugins can be.
   */
  privileged?: boolean;
  init?(ctx: PluginInitContext<C>): S | Promise<S>;
  stop?(state: S): void | Promise<void>;
  /** Its link to what it drives, as it last reported it (`pipit status`); undefined: none. */
  health?(state: S): { connected: boolean; detail?: string } | undefined;
  /**
   * HTTP routes the plugin serves when the HTTP backend is on (e.g. an OAuth callback). Routes are
   * unauthenticated unless the plugin guards them itself.
   */
  http?(app: FastifyInstance, ctx: PluginHttpContext<S>): void | Promise<void>;
}

/** What a plugin's `http` hook receives. */
export interface PluginHttpContext<S> {
  state: S;
  services: Services;
  log: Logger;
  /** The API's guard, for routes that need a logged-in caller (token, Basic, or session + CSRF). */
  requireUser: preHandlerAsyncHookHandler;
}

/**
 * Defines a plugin. Plugins are registered explicitly in `src/plugins/index.ts`.
 *
 * @example
 * export default definePlugin({ name: 'utils', summary: 'Utilities.', enabledByDefault: true, actions: [echo] });
 */
export function definePlugin<C, S>(def: PluginDef<C, S>): PluginDef<C, S> {
  return def;
}

/**
 * Compiles an action's parameter shape into a strict (or, with `extraArgs`, loose) zod object.
 *
 * @example
 * compileAction(echo).schema.parse({ text: 'hi' });
 */
export function compileAction<S>(def: ActionDef<ParamShape, S>): CompiledAction<S> {
  const schema = def.extraArgs ? z.looseObject(def.params) : z.strictObject(def.params);
  return { ...def, schema, acceptsAny: !!def.extraArgs && Object.keys(def.params).length === 0 };
}

/** What {@link redactArgs} puts in place of a secret value. */
export const REDACTED = '[redacted]';

/**
 * Marks a parameter (or config field) as secret: a password, a token, credentials. The mark is zod
 * metadata (`{secret: true}`), so it also shows in the catalog's JSON Schema (`"secret": true`) where
 * a UI can render a password field; {@link redactArgs} masks marked values before arguments are
 * recorded or logged. Mark the outermost schema (after `.optional()`/`.default()`).
 *
 * @example
 * params: { password: secret(z.string().optional().describe('broker password')) }
 */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...schema.meta(), secret: true });
}

/**
 * True when a parameter's schema is marked {@link secret} (on any optional/nullable/default layer).
 *
 * @example
 * isSecretSchema(secret(z.string().optional())); // true
 */
export function isSecretSchema(schema: z.ZodType): boolean {
  return hasMark(schema, 'secret');
}

function hasMark(schema: z.ZodType, mark: 'secret' | 'secretUserinfo'): boolean {
  for (let at: z.ZodType | undefined = schema, depth = 0; at && depth < 8; depth++) {
    if (at.meta()?.[mark] === true) return true;
    at = (at as unknown as { _zod: { def: { innerType?: z.ZodType } } })._zod.def.innerType;
  }
  return false;
}

/**
 * Marks a URL parameter whose user info (`https://user:password@host/`) may hold credentials:
 * {@link redactArgs} keeps the URL but masks them (see {@link redactUrlUserinfo}). The mark is zod
 * metadata (`{secretUserinfo: true}`), shown in the catalog's JSON Schema like {@link secret}'s.
 *
 * @example
 * params: { url: secretUserinfo(z.string().describe('the address')) }
 */
export function secretUserinfo<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...schema.meta(), secretUserinfo: true });
}

// scheme:[//]userinfo@ — up to the last "@" before the path, as the WHATWG URL parser reads it.
const USERINFO = /^(\s*[a-z][a-z0-9+.-]*:[/\\]*)[^/?#\\]*@/i;

/**
 * A URL with the password in its user info replaced by `[redacted]`, and a user name that comes
 * without a password too (`https://TOKEN@github.com/` is how tokens travel). Text that is not a URL
 * with user info is returned as it is; one the URL parser refuses loses its whole user info.
 *
 * @example
 * redactUrlUserinfo('http://ada:pw@host/x'); // 'http://ada:[redacted]@host/x'
 */
export function redactUrlUserinfo(text: string): string {
  if (!text.includes('@')) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text.replace(USERINFO, `$1${REDACTED}@`);
  }
  if (!url.username && !url.password) return text;
  const userinfo = url.password ? `${url.username}:${REDACTED}` : REDACTED;
  return `${url.protocol}//${userinfo}@${url.host}${url.pathname}${url.search}${url.hash}`;
}

/**
 * A copy of an action's arguments with the values of parameters marked {@link secret} replaced by
 * `[redacted]`, and the credentials in URLs marked {@link secretUserinfo} masked (arguments not
 * declared, or not marked, are kept as they are). For run history, logs and anything else that
 * keeps or shows arguments.
 *
 * @example
 * redactArgs(mqttPublish.params, { topic: 't', password: 'hunter2' }); // { topic: 't', password: '[redacted]' }
 */
export function redactArgs(
  params: ParamShape,
  args: Record<string, unknown>,
): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(args)) {
    const schema = Object.hasOwn(params, key) ? params[key] : undefined;
    const value = args[key];
    if (!schema || value === undefined) continue;
    if (isSecretSchema(schema)) (out ??= { ...args })[key] = REDACTED;
    else if (typeof value === 'string' && hasMark(schema, 'secretUserinfo')) {
      const masked = redactUrlUserinfo(value);
      if (masked !== value) (out ??= { ...args })[key] = masked;
    }
  }
  return out ?? args;
}
