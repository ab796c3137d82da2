import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Service } from '../../app/service.ts';
import { authenticate } from '../guard.ts';
import { operationSchemas } from '../wire/operations.ts';
import type { ReadyStatus } from '../wire/operations.ts';

/**
 * `GET /healthz` (liveness: the process answers) and `GET /readyz` (readiness: the database takes a
 * write lock, the plugins have started, and, when a cluster is configured, Redis answers (a
 * heartbeat PING within `command_timeout_seconds`) and the cluster is usable: not Redis Cluster,
 * no command refused by the ACL, no key of another type, no other live instance with this
 * device_id, no events just lost to the stream's trimming; the instance still serves its own work
 * meanwhile). Unauthenticated and cheap, for load balancers, container
 * health checks and service managers; they say nothing beyond the status, except that a caller
 * with credentials also gets each plugin's link (`plugins`), which never makes it unready.
 *
 * @example
 * curl -s http://localhost:8008/readyz   # {"status":"ready"} (200) or {"status":"unavailable"} (503)
 */
export function healthRoutes(fastify: FastifyInstance, service: Service): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/healthz', { schema: operationSchemas.healthz }, async () => ({
    status: 'ok' as const,
  }));
  app.get('/readyz', { schema: operationSchemas.readyz }, async (req, reply) => {
    // With a cluster configured, Redis unreachable or unusable means requests for other instances fail.
    const clusterReady = service.services.cluster?.ready ?? true;
    const ready = clusterReady && databaseWritable(service);
    const plugins = (await hasCredentials(service, req)) ? pluginLinks(service) : undefined;
    const body = { status: ready ? ('ready' as const) : ('unavailable' as const), ...plugins };
    return ready ? body : reply.code(503).send(body);
  });
}

// Credentials are optional here: without them the answer is the status alone.
async function hasCredentials(service: Service, req: FastifyRequest): Promise<boolean> {
  if (!req.headers.authorization && !req.headers.cookie) return false;
  try {
    await authenticate(service, req, { allowQuery: false });
    return true;
  } catch {
    return false;
  }
}

// What plugins say of their links (a Home Assistant bridge, an MQTT broker), and those that failed
// to start: a detail for people, never a reason to be unready (the service still serves the rest).
function pluginLinks(service: Service): { plugins?: ReadyStatus['plugins'] } {
  const links: NonNullable<ReadyStatus['plugins']> = {};
  for (const p of service.registry.plugins.values()) {
    if (p.failed !== undefined)
      links[p.def.name] = { connected: false, detail: `failed to start: ${p.failed}` };
    else {
      const link = p.def.health?.(p.state);
      if (link) links[p.def.name] = link;
    }
  }
  return Object.keys(links).length ? { plugins: links } : {};
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
