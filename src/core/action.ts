import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { Logger } from './logger.ts';
import type { Services } from './services.ts';

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
  // Actions are stored type-erased: their argument types are enforced where they are defined.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  actions: ActionDef<any, S, any>[];
  init?(ctx: PluginInitContext<C>): S | Promise<S>;
  stop?(state: S): void | Promise<void>;
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
