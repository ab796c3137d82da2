import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Service } from '../../app/service.ts';
import { operationSchemas } from '../wire/operations.ts';

/**
 * `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: the database takes a
 * write lock, the plugins have started, and, when a cluster is configured, Redis answers (a
 * heartbeat PING within `command_timeout_seconds`) and the cluster is usable: not Redis Cluster,
 * no command refused by the ACL, no key of another type, no other live instance with this
 * device_id, no events just lost to the stream's trimming; the instance still serves its own work
 * meanwhile). Unauthenticated and cheap, for load balancers, container
 * health checks and service managers; they say nothing beyond the status.
 *
 * @example
 * curl -s http://localhost:8008/readyz   # {"status":"ready"} (200) or {"status":"unavailable"} (503)
 */
export function healthRoutes(fastify: FastifyInstance, service: Service): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/healthz', { schema: operationSchemas.healthz }, async () => ({
    status: 'ok' as const,
  }));
  app.get('/readyz', { schema: operationSchemas.readyz }, async (_req, reply) => {
    // With a cluster configured, Redis unreachable or unusable means requests for other instances fail.
    const clusterReady = service.services.cluster?.ready ?? true;
    if (clusterReady && databaseWritable(service)) return { status: 'ready' as const };
    return reply.code(503).send({ status: 'unavailable' as const });
  });
}

// A write lock taken and released at once: proves the file is open, writable and not locked out,
// without writing anything.
function databaseWritable(service: Service): boolean {
  const { db } = service.store;
  if (!db.isOpen) return false;
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}
