import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isPipitError, PipitError } from '../../core/errors.ts';
import type { Service } from '../../app/service.ts';
import { requireUser } from '../guard.ts';
import { tokenSchemas } from '../wire/tokens.ts';

/**
 * Token management for the logged-in user: create (password re-entered), list, revoke. The caller
 * is authenticated before the body is checked: without credentials, a 401 and nothing about it.
 *
 * @example
 * curl -H "Authorization: Bearer $TOKEN" http://localhost:8008/tokens
 */
export function tokenRoutes(fastify: FastifyInstance, service: Service): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth } = service;
  const preValidation = requireUser(service);

  app.get('/tokens', { schema: tokenSchemas.list, preValidation }, async (req) => ({
    tokens: auth.listTokens(req.principal!.userId),
  }));

  app.post('/tokens', { schema: tokenSchemas.create, preValidation }, async (req, reply) => {
    const body = req.body;
    // A wrong re-entered password is not a lost session: 403, so the UI does not log the user out.
    const user = await auth
      .checkCredentials(req.principal!.username, body.password, req.ip)
      .catch((err: unknown) => {
        throw isPipitError(err, 'UNAUTHORIZED')
          ? new PipitError('FORBIDDEN', 'the password is wrong', { cause: err })
          : err;
      });
    const issued = await auth.issueToken(user, { name: body.name, expiryDays: body.expiry_days });
    return reply.code(201).send(issued);
  });

  app.delete('/tokens/:id', { schema: tokenSchemas.revoke, preValidation }, async (req) => {
    auth.revokeToken(req.principal!.userId, req.params.id);
    return { success: true as const };
  });
}
