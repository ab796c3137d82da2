import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Auth } from '../auth/auth.ts';
import { JwtCodec, loadOrCreateSecret } from '../auth/jwt.ts';
import type { LoadedConfig } from '../config/load.ts';
import { configView } from '../config/view.ts';
import type { CompiledAction, PluginDef } from '../core/action.ts';
import { createExecute } from '../core/execute.ts';
import type { Execute } from '../core/execute.ts';
import { createLogger } from '../core/logger.ts';
import type { Logger } from '../core/logger.ts';
import { compileActions, Registry } from '../core/registry.ts';
import { outputOrThrow } from '../core/run-output.ts';
import type { Services } from '../core/services.ts';
import { RunObservers } from '../core/runs.ts';
import { LocalBus } from '../events/bus.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { runFailedEvents } from '../events/run-failed.ts';
import { Events } from '../events/events.ts';
import { loadEnabledPlugins, pluginCatalog } from '../plugins/catalog.ts';
import { Scheduler } from '../cron/scheduler.ts';
import { attachService } from '../scripts/attached.ts';
import type { LoadedScripts } from '../scripts/loader.ts';
import { buildUserLayer, installUserLayer } from './user-layer.ts';
import { userConfigPort } from './reload.ts';
import { pipitFilesOf } from '../plugins/file/own-files.ts';
import { Store } from '../store/store.ts';

/** A running Pipit instance without transports: what HTTP, the CLI and `run()` all sit on. */
export interface Service {
  /** The configuration in effect (a reload replaces its procedures, hooks, crons and log level). */
  config: LoadedConfig;
  /** The plugins this service can enable (Pipit's own unless a test gave others). */
  plugins: readonly PluginDef[];
  events: Events;
  /** Cron jobs, added (from config and scripts) but started only by `startPipit`. */
  scheduler: Scheduler;
  /** What loading `scripts_dir` produced. */
  scripts: LoadedScripts;
  log: Logger;
  store: Store;
  auth: Auth;
  registry: Registry;
  execute: Execute;
  services: Services;
  /**
   * Prometheus metrics (`GET /metrics`); `services.metrics` is the same object. Absent in a service
   * made with `metrics: false` (a one-off command's), which nobody scrapes.
   */
  metrics?: Metrics;
  /** Stops plugins and closes the database. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Builds the service from a loaded configuration: opens the database, creates the JWT secret,
 * starts the enabled plugins and wires the one `execute()`.
 *
 * @example
 * const service = await createService(loadConfig({ path: null, plugins: builtinPlugins }));
 * await service.execute({ type: 'request', action: 'utils.echo' }, { transport: 'cli' });
 * await service.close();
 */
export async function createService(
  config: LoadedConfig,
  opts: {
    log?: Logger;
    plugins?: readonly PluginDef[];
    loadScripts?: boolean;
    /** Join the cluster of `config.redis` (only `pipit start` does; one-off commands do not). */
    cluster?: boolean;
    /**
     * Keep Prometheus metrics (default true). One-off commands say false: nobody scrapes them, and
     * loading prom-client (and node:http, which it loads) cost `pipit run` some 40 ms.
     */
    metrics?: boolean;
  } = {},
): Promise<Service> {
  // Only the enabled plugins are loaded (plugins/catalog.ts); sections read before are checked now.
  const loaded = await loadEnabledPlugins(config, opts.plugins ?? pluginCatalog);
  config = loaded.config;
  const log = opts.log ?? createLogger({ level: config.logLevel, format: config.logFormat });
  mkdirSync(config.workdir, { recursive: true, mode: 0o700 });
  const store = Store.open(join(config.workdir, 'pipit.db'), (err) =>
    log.warn({ err }, 'the WAL checkpoint thread failed: SQLite checkpoints in the writes again'),
  );
  const available = loaded.plugins;
  const registry = new Registry(available);
  const auth = new Auth(store, new JwtCodec(loadOrCreateSecret(config.workdir)), {
    sessionDays: config.http?.session_days ?? 30,
    loginAttempts: config.http?.login_attempts ?? 10,
  });

  const runs = new RunObservers((err) => log.warn({ err }, 'a run observer failed'));
  const metrics =
    opts.metrics === false
      ? undefined
      : (await import('../metrics/metrics.ts')).createMetrics(registry);
  if (metrics) runs.add(metrics.observeRun);
  const cluster =
    opts.cluster && config.redis
      ? // Imported here: ioredis and the cluster code load only when a cluster is configured.
        new (await import('../cluster/cluster.ts')).Cluster({
          settings: config.redis,
          deviceId: config.deviceId,
          log,
          namespace: config.eventNamespace,
          execute: () => services.execute,
          plugins: () => [...registry.plugins.keys()],
        })
      : undefined;
  if (cluster) metrics?.watchCluster(() => cluster.report());
  const events = new Events({
    bus: cluster?.bus ?? new LocalBus((err) => log.warn({ err }, 'an event subscriber failed')),
    origin: config.deviceId,
    log: log.child({ component: 'hooks' }),
    namespace: config.eventNamespace,
    runs,
    ...(cluster ? { claim: cluster.claim.bind(cluster) } : {}),
  });
  runs.onTrackedFailure(runFailedEvents(events, log));
  if (metrics) events.hooks.onSkip = (hook) => metrics.hookSkipped(hook);
  const scheduler = new Scheduler(log.child({ component: 'cron' }), runs);
  if (cluster) scheduler.claim = cluster.claim.bind(cluster);

  // The configuration as it runs: a reload replaces service.config (scripts_dir may change).
  let running = () => config;
  const services: Services = {
    deviceId: config.deviceId,
    log,
    store,
    registry,
    events,
    execute: createExecute({
      registry,
      deviceId: config.deviceId,
      log,
      services: () => services,
      runs,
      ...(cluster ? { remote: cluster.remote } : {}),
    }),
    runs,
    cron: scheduler,
    metrics,
    ...(cluster ? { cluster } : {}),
    configValue: configView(config),
    pipitFiles: () => pipitFilesOf(running()),
    async run(action, args = {}, runOpts = {}) {
      return outputOrThrow(
        await services.execute(
          { type: 'request', action, args },
          { transport: 'library', ...runOpts },
        ),
      );
    },
  };

  const started: { def: PluginDef; state: unknown }[] = [];
  try {
    // Every plugin's kinds, on or off: a hook may name a kind before its plugin is configured.
    for (const def of available)
      for (const kind of def.eventKinds ?? []) events.kinds.declare(kind);
    for (const def of available) {
      const section = config.plugins.get(def.name);
      if (!section) continue;
      if (def.from) {
        await startPackage(def, section.config, { log, services, registry, started });
        continue;
      }
      const pluginLog = log.child({ plugin: def.name });
      const state = def.init
        ? await def.init({ config: section.config, log: pluginLog, services })
        : undefined;
      started.push({ def, state });
      registry.addPlugin({ def, config: section.config, state, actions: compileActions(def) });
    }
    // YAML sections first, without scripts: a bad one stops the start before anything runs.
    if (opts.loadScripts === false)
      installUserLayer(
        await buildUserLayer(config, services, { generation: 0, loadScripts: false }),
        { registry, hooks: events.hooks, scheduler },
      );
  } catch (err) {
    for (const { def, state } of started.reverse()) await def.stop?.(state);
    await store.close();
    throw err;
  }

  let closed = false;
  let attachedToLibrary = false;
  const service: Service = {
    config,
    plugins: available,
    events,
    log,
    store,
    auth,
    registry,
    execute: services.execute,
    services,
    metrics,
    scheduler,
    scripts: { files: [], failed: [], procedures: [], hooks: [], crons: [] },
    async close() {
      if (closed) return;
      closed = true;
      scheduler.stop();
      await events.idle();
      await events.bus.close();
      await cluster?.close();
      for (const { def, state } of started.reverse()) {
        try {
          await def.stop?.(state);
        } catch (err) {
          log.warn({ err, plugin: def.name, ...packageOf(def) }, 'plugin failed to stop cleanly');
        }
      }
      await store.close();
      if (attachedToLibrary) attachService(undefined);
    },
  };
  running = () => service.config;
  services.userConfig = userConfigPort(service);
  // Scripts come last: their hooks and procedures may use everything above, and `run()` inside
  // them must reach this service.
  if (opts.loadScripts !== false) {
    attachService(service);
    attachedToLibrary = true;
    try {
      const layer = await buildUserLayer(config, services, { generation: 0, loadScripts: true });
      installUserLayer(layer, { registry, hooks: events.hooks, scheduler });
      service.scripts = layer.scripts;
      for (const warning of layer.warnings) log.warn(warning);
    } catch (err) {
      await service.close();
      throw err;
    }
  }
  // Last, once everything can answer: requests from other instances may arrive at once.
  cluster?.start();
  return service;
}

/** The package fields of a plugin package's log lines. */
function packageOf(def: PluginDef): { package?: string; version?: string } {
  return def.from ? { package: def.from.package, version: def.from.version } : {};
}

/**
 * Starts a plugin package: one that failed to load, or throws in `init`, is logged with its
 * package and version and registered as failed (its calls answer 503 saying why); the rest of
 * Pipit starts, as a hub must when one integration is broken.
 */
async function startPackage(
  def: PluginDef,
  config: unknown,
  to: {
    log: Logger;
    services: Services;
    registry: Registry;
    started: { def: PluginDef; state: unknown }[];
  },
): Promise<void> {
  const pluginLog = to.log.child({ plugin: def.name, ...packageOf(def) });
  let failed = def.failed;
  let state: unknown;
  if (failed === undefined) {
    try {
      state = def.init
        ? await def.init({ config, log: pluginLog, services: to.services })
        : undefined;
      to.started.push({ def, state });
    } catch (err) {
      failed = `its init threw: ${(err as Error)?.message ?? String(err)}`;
      pluginLog.error({ err }, `plugin ${def.name} failed to start: ${failed}`);
    }
  } else pluginLog.error(`plugin ${def.name} failed to start: ${failed}`);
  to.registry.addPlugin({
    def,
    config,
    state,
    actions: failed === undefined ? compileActions(def) : new Map<string, CompiledAction>(),
    ...(failed === undefined ? {} : { failed }),
  });
}
