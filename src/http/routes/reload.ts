import type { FastifyInstance } from 'fastify';
import { reloadService } from '../../app/reload.ts';
import type { Service } from '../../app/service.ts';
import { requireUser } from '../guard.ts';
import { operationSchemas } from '../wire/operations.ts';

/**
 * `POST /reload` (Settings → Reload): reloads the configuration file and the scripts, as SIGHUP
 * does. 200 `{reloaded, warnings, restart_needed}`; 400 with the reason when the new configuration
 * is refused (the running one is kept). Needs a logged-in user (and the CSRF header from a browser).
 *
 * @example
 * curl -X POST -H "Authorization: Bearer $TOKEN" http://localhost:8008/reload
 */
export function reloadRoute(app: FastifyInstance, service: Service): void {
  app.post('/reload', { schema: operationSchemas.reload, preHandler: requireUser(service) }, () =>
    reloadService(service),
  );
}
