import type { FastifyInstance } from 'fastify';
import { startMetricsListener } from '../../metrics/listener.ts';
import type { MetricsListener } from '../../metrics/listener.ts';
import { METRICS_CONTENT_TYPE, requireMetrics } from '../../metrics/metrics.ts';
import type { Service } from '../../app/service.ts';
import { requireUser } from '../guard.ts';
import { operationSchemas } from '../wire/operations.ts';

/**
 * `GET /metrics`: the Prometheus text format, for a token (Bearer, X-Token or Basic, as
 * `/execute`). With `backend.http.metrics: {port, bind_address}` the same text is also served
 * without authentication on that address, by a listener that starts and stops with this app.
 *
 * @example
 * curl -s -H "Authorization: Bearer $TOKEN" http://localhost:8008/metrics
 */
export function metricsRoutes(app: FastifyInstance, service: Service): void {
  const metrics = requireMetrics(service);
  app.get(
    '/metrics',
    { schema: operationSchemas.metrics, preHandler: requireUser(service) },
    async (_req, reply) => {
      const body = await metrics.scrape();
      return reply.type(METRICS_CONTENT_TYPE).header('cache-control', 'no-store').send(body);
    },
  );

  const separate = service.config.http?.metrics;
  if (!separate) return;
  const log = service.log.child({ component: 'metrics' });
  let listener: MetricsListener | undefined;
  app.addHook('onReady', async () => {
    listener = await startMetricsListener({
      port: separate.port,
      host: separate.bind_address,
      scrape: () => metrics.scrape(),
      log,
    });
    log.info({ url: listener.url }, `metrics served without authentication on ${listener.url}`);
  });
  app.addHook('onClose', async () => {
    await listener?.close();
  });
}
