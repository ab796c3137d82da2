import type { Logger } from './logger.ts';
import type { Registry } from './registry.ts';
import type { Execute } from './execute.ts';
import type { Caller, RunObservers } from './runs.ts';
import type { ClusterPort } from './cluster-port.ts';

/** Cron jobs as plugins reach them (the scheduler lives in src/cron/). */
export interface CronRunner {
  /** Runs a job now as its schedule would; NOT_FOUND for an unknown name. */
  runNow(
    name: string,
    origin?: { caller?: Caller; replayOf?: string; runId?: string },
  ): Promise<'ran' | 'failed' | 'skipped'>;
}

/**
 * The user's configuration file as the service runs it: what the automations plugin needs to edit
 * it (src/app fills it; core does not import the loader).
 */
export interface UserConfigPort {
  /** The main configuration file; null when running on the embedded defaults. */
  path(): string | null;
  /** The procedure, hook and cron sections in effect, with the file each comes from. */
  sections(): readonly { key: string; source: string }[];
  /**
   * Checks a change before it is written: the configuration loads with `files` (path → text) read
   * instead of the disk, and its procedures, hooks and crons (with the scripts loaded now) compile
   * and call actions that exist. CONFIG_INVALID naming the problem; the warnings otherwise.
   */
  check(files: ReadonlyMap<string, string>): Promise<string[]>;
  /** Reloads as `POST /reload` does; BAD_REQUEST naming the problem, the running one kept. */
  reload(): Promise<unknown>;
}

/**
 * What plugins report to the metrics (src/metrics implements it; core does not import it).
 * Calls are cheap and never throw.
 *
 * @example
 * services.metrics?.upstreamCall('spotify', 'GET', res.status);
 */
export interface MetricsHooks {
  /** An HTTP call to an external API answered `status`; `'error'` when no answer came. */
  upstreamCall(api: string, method: string, status: number | 'error'): void;
}

/** Where Pipit keeps its own files, which plugins that touch files keep away from. */
export interface PipitFiles {
  /** The configuration file and the files it includes. */
  configFiles: readonly string[];
  configDir: string;
  workdir: string;
  scriptsDir: string;
}

/**
 * The shared services every plugin, transport and script reaches through one object. Built once by
 * `createService` (src/app/service.ts); parts added by later subsystems (events, cron) hang off it too.
 */
/**
 * The members of {@link Services} that the layers above core provide. The store (src/store/store.ts)
 * and the events (src/events/events.ts) each add theirs by module augmentation, so that core names
 * the slot without importing what fills it: imports go one way, from the upper layers down.
 *
 * @example
 * declare module '../core/services.ts' {
 *   interface ServiceParts { store: Store }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by augmentation
export interface ServiceParts {}

export interface Services extends ServiceParts {
  /** This instance's name: the `origin` of responses and events. */
  deviceId: string;
  log: Logger;
  registry: Registry;
  /** The single entry point every transport calls. */
  execute: Execute;
  /** Observers of finished runs: the run history, metrics, RunFailedEvent. */
  runs: RunObservers;
  /** The cron jobs (set once the scheduler exists). */
  cron: CronRunner;
  /** Counters for plugins (`/metrics`); absent where a Services is built without them. */
  metrics?: MetricsHooks;
  /** The cluster this instance is part of (`redis` configured, `pipit start`); absent otherwise. */
  cluster?: ClusterPort;
  /** `Config.get(key)` for expressions: a read-only, credential-free view of the configuration. */
  configValue(key: string): unknown;
  /** Reading, checking and reloading the user's configuration (absent outside a service). */
  userConfig?: UserConfigPort;
  /** Pipit's own files as the running configuration has them (absent where no config is loaded). */
  pipitFiles?(): PipitFiles;
  /**
   * Runs an action and returns its output. On failure it throws a PipitError with the call's own
   * code (NOT_FOUND for an unknown action, not ACTION_FAILED) and the `errors` in `details.errors`,
   * as `run()` of the library does.
   *
   * @example
   * const out = await services.run('variable.get', { name: 'x' });
   */
  run(
    action: string,
    args?: Record<string, unknown>,
    opts?: { signal?: AbortSignal; depth?: number; caller?: Caller },
  ): Promise<unknown>;
}
