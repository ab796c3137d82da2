import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ActionContext, ActionDef, ParamShape, PluginDef } from '../../core/action.ts';
import { PipitError } from '../../core/errors.ts';
import type { KeyValueStore } from '../../core/key-value.ts';
import type { Services } from '../../core/services.ts';
import { didYouMean } from '../../lib/suggest.ts';
import type {
  PluginAction,
  PluginActionContext,
  PluginManifest,
  PluginRoute,
  PluginStatus,
} from './manifest.ts';
import { fullKind } from './head.ts';

/**
 * What a plugin defined with {@link definePlugin} keeps as its state inside Pipit: the state its
 * `init` returned, and what its actions' context is made of.
 *
 * @example
 * const def: PluginDef<Config, Held<State>> = definePlugin(manifest);
 */
export interface Held<S> {
  user: S;
  kv: KeyValueStore;
  fire: PluginActionContext<S>['fire'];
  stopping: AbortController;
  services: Services;
  /** What the plugin last reported with `setStatus` (absent: it reports nothing). */
  status?: PluginStatus;
}

/**
 * Defines a plugin from its manifest: its name, config schema, actions, the events it raises, and
 * optional `init`/`stop` and routes. A plugin package's default export is what this returns.
 *
 * @example
 * import { definePlugin, defineAction, z } from 'pipit';
 * const greet = defineAction({
 *   name: 'greet',
 *   summary: 'Says hello.',
 *   params: { name: z.string().describe('who to greet') },
 *   run: ({ name }) => ({ text: `Hello, ${name}!` }),
 * });
 * export default definePlugin({ name: 'hello', summary: 'Greets people.', actions: [greet] });
 */
export function definePlugin<C, S>(manifest: PluginManifest<C, S>): PluginDef<C, Held<S>> {
  // `GreetedEvent` is the plugin's own (`pipit.message.event.<plugin>.GreetedEvent`); a dotted key
  // such as `light.LightStatusChangeEvent` names its module itself, as Platypush's kinds do.
  const kinds = new Map<string, { full: string; schema: z.ZodType }>();
  for (const [key, schema] of Object.entries(manifest.events ?? {})) {
    const kind = { full: fullKind(manifest.name, key), schema };
    kinds.set(key, kind);
    kinds.set(key.slice(key.lastIndexOf('.') + 1), kind);
  }
  const fireFor =
    (services: Services) =>
    async (kind: string, fields: Record<string, unknown> = {}): Promise<void> => {
      const declared = kinds.get(kind);
      if (!declared)
        throw new PipitError(
          'INTERNAL',
          `plugin "${manifest.name}" fired "${kind}", which its manifest does not declare${didYouMean(kind, kinds.keys())}: add it to "events"`,
        );
      const parsed = declared.schema.safeParse(fields);
      if (!parsed.success)
        throw new PipitError(
          'INTERNAL',
          `plugin "${manifest.name}" fired ${kind} with bad fields: ${z.prettifyError(parsed.error)}`,
        );
      await services.events.emit(declared.full, parsed.data as Record<string, unknown>);
    };
  return {
    name: manifest.name,
    ...(manifest.aliases ? { aliases: manifest.aliases } : {}),
    summary: manifest.summary,
    ...(manifest.config ? { config: manifest.config } : {}),
    ...(manifest.enabledByDefault ? { enabledByDefault: true } : {}),
    ...(manifest.disabledHint ? { disabledHint: manifest.disabledHint } : {}),
    eventKinds: [...new Set([...kinds.values()].map((k) => k.full))],
    actions: manifest.actions.map((action) => wrapAction(action as PluginAction<ParamShape, S>)),
    async init({ config, log, services }) {
      const stopping = new AbortController();
      // Only the three calls: the store object itself holds the database handle.
      const stored = services.store.pluginKv(manifest.name);
      const kv: KeyValueStore = Object.freeze({
        get: <T>(key: string) => stored.get<T>(key),
        set: (key: string, value: unknown) => stored.set(key, value),
        delete: (key: string) => stored.delete(key),
      });
      const fire = fireFor(services);
      const run = (action: string, args: Record<string, unknown> = {}) =>
        services.run(action, args, { signal: stopping.signal });
      const held = { kv, fire, stopping, services } as Held<S>;
      const setStatus = (status: PluginStatus) => {
        held.status = {
          connected: status.connected,
          ...(status.detail ? { detail: status.detail } : {}),
        };
      };
      held.user = manifest.init
        ? await manifest.init({ config, log, kv, fire, run, signal: stopping.signal, setStatus })
        : (undefined as S);
      return held;
    },
    health: (held) => held.status,
    async stop(held) {
      held.stopping.abort(new Error(`plugin "${manifest.name}" is stopping`));
      await manifest.stop?.(held.user);
    },
    ...(manifest.routes?.length
      ? {
          http: (app, ctx) => {
            for (const route of manifest.routes!) mountRoute(app, manifest.name, route, ctx);
          },
        }
      : {}),
  };
}

function wrapAction<S>(action: PluginAction<ParamShape, S>): ActionDef<ParamShape, Held<S>> {
  return {
    name: action.name,
    summary: action.summary,
    ...(action.description ? { description: action.description } : {}),
    params: action.params,
    ...(action.extraArgs ? { extraArgs: true } : {}),
    ...(action.result ? { result: action.result } : {}),
    run: (args, ctx: ActionContext<Held<S>>) =>
      action.run(args, {
        state: ctx.state.user,
        // Read on use: a child logger per call costs more than a fast action itself.
        get log() {
          return ctx.log;
        },
        kv: ctx.state.kv,
        fire: ctx.state.fire,
        run: (name, callArgs = {}) =>
          ctx.state.services.run(name, callArgs, {
            signal: ctx.signal,
            ...(ctx.caller ? { caller: ctx.caller } : {}),
          }),
        signal: ctx.signal,
        user: ctx.caller?.user ?? null,
      }),
  };
}

type HttpContext<S> = Parameters<NonNullable<PluginDef<unknown, Held<S>>['http']>>[1];

function mountRoute<S>(
  app: Parameters<NonNullable<PluginDef['http']>>[0],
  plugin: string,
  route: PluginRoute,
  ctx: HttpContext<S>,
): void {
  app.route({
    method: route.method,
    url: `/plugins/${plugin}${route.path.startsWith('/') ? '' : '/'}${route.path}`,
    ...(route.public ? {} : { preHandler: ctx.requireUser }),
    handler: async (req: FastifyRequest) =>
      route.handler(
        {
          params: req.params as Record<string, string>,
          query: req.query as Record<string, string | string[] | undefined>,
          body: req.body,
          headers: req.headers,
          user: req.principal?.username ?? null,
        },
        ctx.state.user,
      ),
  });
}

/**
 * Defines an action of a plugin package; `S` is the state its plugin's `init` returns.
 *
 * @example
 * const greet = defineAction({
 *   name: 'greet',
 *   summary: 'Says hello.',
 *   params: { name: z.string().describe('who to greet') },
 *   run: ({ name }, { kv }) => ({ text: `Hello, ${name}!`, before: kv.get('last') }),
 * });
 */
export function defineAction<P extends ParamShape, R, S = unknown>(
  action: PluginAction<P, S, R>,
): PluginAction<P, S, R> {
  return action;
}

/**
 * {@link defineAction} for the actions of one plugin, with its state's type said once.
 *
 * @example
 * const action = actionsFor<{ client: Client }>();
 * export const status = action({
 *   name: 'status',
 *   summary: "The device's status.",
 *   params: {},
 *   run: (_args, { state }) => state.client.status(),
 * });
 */
export function actionsFor<S>() {
  return <P extends ParamShape, R>(action: PluginAction<P, S, R>): PluginAction<P, S, R> => action;
}
