import type { Logger } from './logger.ts';
import type { Registry } from './registry.ts';
import type { Execute } from './execute.ts';
import type { Store } from '../store/store.ts';
import type { Events } from '../events/events.ts';

/**
 * The shared services every plugin, transport and script reaches through one object. Built once by
 * `createService` (src/service.ts); parts added by later subsystems (events, cron) hang off it too.
 */
export interface Services {
  /** This instance's name: the `origin` of responses and events. */
  deviceId: string;
  log: Logger;
  store: Store;
  registry: Registry;
  /** Event kinds, the bus and the hooks it feeds. */
  events: Events;
  /** The single entry point every transport calls. */
  execute: Execute;
  /** `Config.get(key)` for expressions: a read-only, credential-free view of the configuration. */
  configValue(key: string): unknown;
  /**
   * Runs an action and returns its output, throwing a PipitError with the `errors` on failure.
   *
   * @example
   * const out = await services.run('variable.get', { name: 'x' });
   */
  run(
    action: string,
    args?: Record<string, unknown>,
    opts?: { signal?: AbortSignal; depth?: number },
  ): Promise<unknown>;
}
