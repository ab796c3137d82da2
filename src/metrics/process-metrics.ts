import { collectDefaultMetrics, Registry } from 'prom-client';

let processRegistry: Registry | undefined;

/**
 * The registry of prom-client's default metrics (`process_cpu_seconds_total`,
 * `process_resident_memory_bytes`, `nodejs_eventloop_lag_seconds`, `nodejs_gc_duration_seconds`,
 * heap sizes...). They describe the process, not a service, so one registry serves every service
 * in it (tests run several): made on first use, never prom-client's global one.
 *
 * @example
 * const text = await Registry.merge([serviceRegistry, processMetrics()]).metrics();
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
