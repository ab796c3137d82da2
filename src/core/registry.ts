import { z } from 'zod';
import { compileAction } from './action.ts';
import type { ActionDef, CompiledAction, ParamShape, PluginDef } from './action.ts';
import { PipitError } from './errors.ts';
import { didYouMean } from '../lib/suggest.ts';
import { isUnprovidedPlatypushPlugin, missingPluginHint } from './platypush-plugins.ts';

/** A plugin as it runs: its definition, parsed config, state and compiled actions. */
export interface PluginInstance {
  def: PluginDef;
  config: unknown;
  state: unknown;
  actions: Map<string, CompiledAction>;
  /** Why it did not start (a plugin package that threw at import or `init`): calls answer 503. */
  failed?: string;
}

/** What a procedure's `run` receives. */
export interface ProcedureRunContext {
  signal: AbortSignal;
  /** Nesting depth of procedure calls, to stop runaway recursion. */
  depth: number;
}

/** A user procedure (YAML or script), reachable as `procedure.<name>`. */
export interface ProcedureEntry {
  name: string;
  /** Declared argument names; procedures also accept undeclared ones, as in Platypush. */
  params: string[];
  /** Declared arguments without a default, which a call must pass (YAML procedures). */
  required?: string[];
  /** The declared defaults (`procedure.morning(volume=50)`), shown by the Execute form. */
  defaults?: Record<string, unknown>;
  summary: string;
  /** Where it was defined: a config file or a script path. */
  source: string;
  /** The actions its steps call, where known (YAML), for the check at load. */
  calls?: { action: string; path: string }[];
  run(args: Record<string, unknown>, ctx: ProcedureRunContext): Promise<unknown>;
}

/** The resolution of an action name. */
export type Resolved =
  | { kind: 'action'; name: string; plugin: PluginInstance; action: CompiledAction }
  | { kind: 'procedure'; name: string; procedure: ProcedureEntry };

/** One action in the catalog that `inspect`, the CLI and the UI show. */
export interface CatalogAction {
  name: string;
  summary: string;
  description?: string;
  extraArgs: boolean;
  params: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/** One plugin in the catalog. */
export interface CatalogPlugin {
  name: string;
  aliases: string[];
  summary: string;
  actions: CatalogAction[];
}

const jsonSchemaCache = new WeakMap<CompiledAction, CatalogAction>();

function toCatalogAction(fullName: string, action: CompiledAction): CatalogAction {
  const cached = jsonSchemaCache.get(action);
  if (cached) return cached;
  const toJson = (schema: z.ZodType, io: 'input' | 'output') =>
    z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  const entry: CatalogAction = {
    name: fullName,
    summary: action.summary,
    ...(action.description ? { description: action.description } : {}),
    extraArgs: Boolean(action.extraArgs),
    params: toJson(action.schema, 'input'),
    ...(action.result ? { result: toJson(action.result, 'output') } : {}),
  };
  jsonSchemaCache.set(action, entry);
  return entry;
}

/**
 * Holds the enabled plugins and the procedures, and resolves action names to them.
 *
 * @example
 * const registry = new Registry(builtinPlugins);
 * registry.addPlugin({ def: utils, config: {}, state: undefined, actions: compileActions(utils) });
 * registry.resolve('utils.echo');
 */
export class Registry {
  readonly plugins = new Map<string, PluginInstance>();
  readonly procedures = new Map<string, ProcedureEntry>();
  private readonly aliases = new Map<string, string>();
  private readonly resolved = new Map<string, Resolved>();
  private readonly known: Map<string, PluginDef>;

  /** @param available every plugin Pipit ships, enabled or not, for helpful errors. */
  constructor(available: readonly PluginDef[] = []) {
    this.known = new Map(available.map((p) => [p.name, p]));
    for (const p of available) for (const alias of p.aliases ?? []) this.aliases.set(alias, p.name);
  }

  /** Registers an enabled plugin instance. */
  addPlugin(instance: PluginInstance): void {
    this.resolved.clear();
    this.plugins.set(instance.def.name, instance);
    this.known.set(instance.def.name, instance.def);
    for (const alias of instance.def.aliases ?? []) this.aliases.set(alias, instance.def.name);
  }

  /** Registers (or replaces) a procedure. */
  addProcedure(entry: ProcedureEntry): void {
    this.resolved.clear();
    this.procedures.set(entry.name, entry);
  }

  /** Replaces every procedure at once (a reload): calls resolve to the new set from now on. */
  replaceProcedures(entries: readonly ProcedureEntry[]): void {
    this.resolved.clear();
    this.procedures.clear();
    for (const entry of entries) this.procedures.set(entry.name, entry);
  }

  /** The canonical plugin name for a name or alias. */
  canonical(name: string): string {
    return this.aliases.get(name) ?? name;
  }

  /** A plugin Pipit ships (enabled or not), by name or alias. */
  knownPlugin(name: string): PluginDef | undefined {
    return this.known.get(this.canonical(name));
  }

  /** Resolves `plugin.action` (plugin names may contain dots) or `procedure.name`; NOT_FOUND otherwise. */
  resolve(name: string): Resolved {
    const hit = this.resolved.get(name);
    if (hit) return hit;
    const resolved = this.resolveUncached(name);
    // Only successes are cached, and the cache is bounded: callers can send any name.
    if (this.resolved.size < 10_000) this.resolved.set(name, resolved);
    return resolved;
  }

  private resolveUncached(name: string): Resolved {
    if (name.startsWith('procedure.')) {
      const procName = name.slice('procedure.'.length);
      const procedure = this.procedures.get(procName);
      if (!procedure) {
        throw new PipitError(
          'NOT_FOUND',
          `no procedure named "${procName}"${didYouMean(procName, this.procedures.keys())}`,
        );
      }
      return { kind: 'procedure', name, procedure };
    }
    const parts = name.split('.');
    const named = parts.slice(0, -1).join('.');
    // `http.webpage.simplify` calls Platypush's http.webpage, not an action of Pipit's http.
    if (isUnprovidedPlatypushPlugin(named) && !this.known.has(this.canonical(named)))
      throw this.notInstalled(named, name);
    for (let i = parts.length - 1; i >= 1; i--) {
      const pluginName = this.canonical(parts.slice(0, i).join('.'));
      const actionName = parts.slice(i).join('.');
      const plugin = this.plugins.get(pluginName);
      if (plugin?.failed !== undefined)
        throw new PipitError(
          'UNAVAILABLE',
          `plugin "${pluginName}" failed to start: ${plugin.failed}${plugin.def.from ? ` (${plugin.def.from.package}@${plugin.def.from.version}; the log says more)` : ''}`,
        );
      if (plugin) {
        const action = plugin.actions.get(actionName);
        if (!action) {
          throw new PipitError(
            'NOT_FOUND',
            `plugin "${pluginName}" has no action "${actionName}"${didYouMean(actionName, plugin.actions.keys())}`,
          );
        }
        return { kind: 'action', name: `${pluginName}.${actionName}`, plugin, action };
      }
      if (this.known.has(pluginName)) {
        throw new PipitError(
          'NOT_FOUND',
          `plugin "${pluginName}" is not enabled: ${this.known.get(pluginName)!.disabledHint ?? `add a "${pluginName}:" section to the configuration`}`,
        );
      }
    }
    throw this.notInstalled(named, name);
  }

  private notInstalled(plugin: string, action: string): PipitError {
    return new PipitError(
      'NOT_FOUND',
      `no plugin "${plugin}" for action "${action}": it is not installed${missingPluginHint(plugin, this.plugins.keys())}`,
    );
  }

  /** The catalog of enabled plugins and their actions, with JSON Schemas of parameters and results. */
  catalog(): CatalogPlugin[] {
    return [...this.plugins.values()]
      .sort((a, b) => a.def.name.localeCompare(b.def.name))
      .map((p) => ({
        name: p.def.name,
        aliases: p.def.aliases ?? [],
        summary: p.def.summary,
        actions: [...p.actions.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([actionName, action]) => toCatalogAction(`${p.def.name}.${actionName}`, action)),
      }));
  }
}

/**
 * Compiles a plugin's actions into the map the registry holds.
 *
 * @example
 * compileActions(utilsPlugin).get('echo');
 */
export function compileActions(def: PluginDef): Map<string, CompiledAction> {
  const map = new Map<string, CompiledAction>();
  for (const action of def.actions) {
    if (map.has(action.name))
      throw new Error(`plugin ${def.name} defines action ${action.name} twice`);
    map.set(action.name, compileAction<unknown>(action as ActionDef<ParamShape>));
  }
  return map;
}
