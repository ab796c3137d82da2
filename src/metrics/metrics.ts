import { Registry as PromRegistry } from 'prom-client';
import type { ClusterReport } from '../core/cluster-port.ts';
import { PipitError } from '../core/errors.ts';
import type { Registry } from '../core/registry.ts';
import type { RunObserver } from '../core/runs.ts';
import type { MetricsHooks } from '../core/services.ts';
import { clusterMetrics } from './cluster-metrics.ts';
import { processMetrics } from './process-metrics.ts';
import { runMetrics } from './run-metrics.ts';
import { upstreamMetrics } from './upstream-metrics.ts';
import { wsMetrics } from './ws-metrics.ts';
import type { WsMetrics } from './ws-metrics.ts';

/**
 * The Content-Type of the Prometheus text exposition format.
 *
 * @example
 * reply.type(METRICS_CONTENT_TYPE).send(await metrics.scrape());
 */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * One service's metrics, in a prom-client registry of its own (several services may share a
 * process). Plugins see it as {@link MetricsHooks} (`services.metrics`); the run observer feeds
 * the request, hook and cron metrics; the WebSocket handlers report to `ws`.
 *
 * @example
 * service.metrics.upstreamCall('spotify', 'GET', 200);
 * const text = await service.metrics.scrape();
 */
export interface Metrics extends MetricsHooks {
  /** This service's registry (process metrics are added at scrape time). */
  readonly register: PromRegistry;
  /** Add it to the service's run observers. */
  readonly observeRun: RunObserver;
  /** Counts an event a hook skipped, having too many runs going (see Hooks). */
  hookSkipped(hook: string): void;
  readonly ws: WsMetrics;
  /** Adds the cluster's metrics, read from its report at scrape time (see clusterMetrics). */
  watchCluster(report: () => Promise<ClusterReport>): void;
  /** The exposition text: this service's metrics, then the process's. */
  scrape(): Promise<string>;
}

/**
 * Makes a service's metrics. `registry` bounds the `action` label (see actionLabel).
 *
 * @example
 * const metrics = createMetrics(registry);
 * runs.add(metrics.observeRun);
 * const text = await metrics.scrape(); // "# HELP pipit_requests_total ..."
 */
export function createMetrics(registry: Registry): Metrics {
  const register = new PromRegistry();
  const runs = runMetrics(register, registry);
  return {
    ...upstreamMetrics(register),
    register,
    observeRun: runs.observe,
    hookSkipped: runs.hookSkipped,
    ws: wsMetrics(register),
    watchCluster: (report) => clusterMetrics(register, report),
    scrape: () => PromRegistry.merge([register, processMetrics()]).metrics(),
  };
}

/**
 * The metrics of a service that serves HTTP: every service but a one-off command's has them (see
 * createService's `metrics` option), and the HTTP backend refuses one without.
 *
 * @example
 * const metrics = requireMetrics(service);
 * metrics.ws.eventDelivered();
 */
export function requireMetrics(service: { metrics?: Metrics | undefined }): Metrics {
  if (!service.metrics)
    throw new PipitError(
      'INTERNAL',
      'this service was created without metrics (metrics: false): it cannot serve HTTP',
    );
  return service.metrics;
}
