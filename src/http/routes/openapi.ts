import type { FastifyInstance } from 'fastify';
import type { Service } from '../../app/service.ts';
import { requireUser } from '../guard.ts';
import { openApiJson } from '../openapi/cache.ts';
import { API_HEADERS, setSecurityHeaders } from '../security-headers.ts';
import { operationSchemas } from '../wire/operations.ts';

/**
 * `GET /openapi.json`: the OpenAPI 3.1 description of the HTTP API, generated on the first request
 * from the routes' zod schemas (wire/*.ts) and the running registry (every action's arguments from the same zod schemas as the catalog, every procedure's
 * declared parameters), so a reload that changes the procedures changes it; the JSON is cached
 * until the registry changes.
 *
 * Protection: the same as the catalog's. The catalog is served only by `inspect.*` actions through
 * `/execute`, i.e. to an authenticated caller, and this document is that catalog (plus the user's
 * procedure names and arguments): it takes the API's credentials — a token (Bearer or X-Token),
 * Basic, or the web UI's session cookie (a GET needs no CSRF header). Without them: 401, or 412
 * while no user exists. Only `/healthz` and `/readyz` are anonymous among the operator endpoints.
 *
 * @example
 * curl -H "Authorization: Bearer $PIPIT_TOKEN" http://localhost:8008/openapi.json
 */
export function openApiRoute(app: FastifyInstance, service: Service): void {
  app.get(
    '/openapi.json',
    { schema: operationSchemas.openapi, preHandler: requireUser(service) },
    async (req, reply) => {
      // JSON API headers (no-store: it is per instance and behind credentials).
      setSecurityHeaders(req, reply, API_HEADERS);
      return reply.type('application/json; charset=utf-8').send(openApiJson(app, service.registry));
    },
  );
}
