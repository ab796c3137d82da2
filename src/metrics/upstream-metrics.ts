import { Counter } from 'prom-client';
import type { Registry as PromRegistry } from 'prom-client';
import type { MetricsHooks } from '../core/services.ts';

/**
 * `pipit_upstream_requests_total{api, method, status}`: HTTP calls plugins make to external APIs
 * (`api="spotify"`: the Spotify Web API), by the HTTP status of the answer, 429s included, or
 * `status="error"` when none came (network error, timeout). Retries count once each.
 *
 * @example
 * const upstream = upstreamMetrics(promRegistry);
 * upstream.upstreamCall('spotify', 'GET', 429);
 */
export function upstreamMetrics(register: PromRegistry): MetricsHooks {
  const calls = new Counter({
    name: 'pipit_upstream_requests_total',
    help: 'HTTP calls to external APIs (api="spotify": the Spotify Web API), by method and status code; status="error" when no answer came (network error, timeout).',
    labelNames: ['api', 'method', 'status'] as const,
    registers: [register],
  });
  return {
    upstreamCall: (api, method, status) => calls.inc({ api, method, status: String(status) }),
  };
}
