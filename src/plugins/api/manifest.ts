import type { z } from 'zod';
import type { ParamShape } from '../../core/action.ts';
import type { KeyValueStore } from '../../core/key-value.ts';
import type { Logger } from '../../core/logger.ts';
import type { PluginHead } from './head.ts';

/**
 * What a plugin's `init` receives: all a plugin may reach of Pipit. It does not get the database
 * (which holds password hashes), the HTTP server or other plugins' state.
 *
 * @example
 * init: ({ config, kv, fire }) => ({ greeting: config.greeting, count: kv.get<number>('count') ?? 0 })
 */
export interface PluginContext<C> {
  /** The plugin's config section, validated by its `config` schema (defaults applied). */
  config: C;
  /** A logger whose lines carry `plugin: <name>`. */
  log: Logger;
  /** A key-value store of the plugin's own that survives restarts. */
  kv: KeyValueStore;
  /**
   * Raises one of the plugin's declared events (`events` in the manifest) with these fields; hooks
   * and `/ws/events` subscribers get it as `pipit.message.event.<plugin>.<Kind>`.
   */
  fire: (kind: string, fields?: Record<string, unknown>) => Promise<void>;
  /** Calls another action (or `procedure.x`) and returns its output; throws its error. */
  run: (action: string, args?: Record<string, unknown>) => Promise<unknown>;
  /** Aborted when the plugin is stopped (shutdown): end timers and connections on it. */
  signal: AbortSignal;
  /**
   * Reports the plugin's link to what it drives (a bridge, a broker), shown by `pipit status` and
   * `pipit plugin list`: `setStatus({ connected: false, detail: 'reconnecting in 4 s' })`.
   */
  setStatus: (status: PluginStatus) => void;
}

/** What a plugin says of its link to what it drives. */
export interface PluginStatus {
  connected: boolean;
  /** One line for people: what is wrong, or where it is connected. */
  detail?: string;
}

/** What an action's `run` receives besides its validated arguments. */
export interface PluginActionContext<S> {
  /** What `init` returned. */
  state: S;
  /** A logger whose lines carry `plugin` and `action`. */
  log: Logger;
  /** The plugin's own key-value store. */
  kv: KeyValueStore;
  /** Raises one of the plugin's declared events. */
  fire: (kind: string, fields?: Record<string, unknown>) => Promise<void>;
  /** Calls another action as the user who called this one; throws its error. */
  run: (action: string, args?: Record<string, unknown>) => Promise<unknown>;
  /** Aborted when the caller gives up (client gone, shutdown). */
  signal: AbortSignal;
  /** Who called: the user name, or null for Pipit itself (a cron, a hook without a user). */
  user: string | null;
}

/**
 * One action of a plugin package: parameters as zod schemas (each with `.describe()`, secrets
 * marked with `secret()`), the catalog, argument checks and the UI's help all come from them.
 */
export interface PluginAction<P extends ParamShape = ParamShape, S = unknown, R = unknown> {
  name: string;
  summary: string;
  description?: string;
  params: P;
  /** Accept arguments not declared in `params` (passed through as they are). */
  extraArgs?: boolean;
  /** Describes the output for the catalog; not enforced at run time. */
  result?: z.ZodType;
  run(args: z.output<z.ZodObject<P>>, ctx: PluginActionContext<S>): R | Promise<R>;
}

/** A request to one of a plugin's routes (`/plugins/<name>/...`). */
export interface PluginRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The logged-in user; null on a public route. */
  user: string | null;
}

/** One HTTP route of a plugin, served at `/plugins/<name><path>`. */
export interface PluginRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** `/status`, `/items/:id`... */
  path: string;
  /** Open to callers without a token or session (a callback from another service). */
  public?: boolean;
  handler(req: PluginRequest, state: unknown): unknown;
}

/**
 * A plugin's manifest: everything Pipit knows of it, in one place.
 *
 * @example
 * export default definePlugin({ name: 'hello', summary: 'Greets.', actions: [greet] });
 */
export interface PluginManifest<C = Record<string, never>, S = undefined> extends PluginHead {
  summary: string;
  /** The config section's schema (a zod object); an absent or empty section parses as `{}`. */
  config?: z.ZodType<C>;
  // Actions are stored type-erased: their argument types are enforced where they are defined.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  actions: PluginAction<any, S, any>[];
  init?(ctx: PluginContext<C>): S | Promise<S>;
  stop?(state: S): void | Promise<void>;
  /** HTTP routes under `/plugins/<name>/`, for a logged-in caller unless marked `public`. */
  routes?: PluginRoute[];
}
