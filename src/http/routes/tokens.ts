import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isPipitError, PipitError } from '../../core/errors.ts';
import type { Service } from '../../app/service.ts';
import { requireUser } from '../guard.ts';
import { ExpiryDays } from '../../auth/expiry.ts';
import { parseBody } from '../../core/parse-body.ts';

const CreateToken = z.object({
  password: z
    .string({ error: 're-enter your password' })
    .min(1, 're-enter your password')
    .max(1024),
  name: z.string().max(100).optional(),
  expiry_days: ExpiryDays,
});

/**
 * Token management for the logged-in user: create (password re-entered), list, revoke.
 *
 * @example
 * curl -H "Authorization: Bearer $TOKEN" http://localhost:8008/tokens
 */
export function tokenRoutes(app: FastifyInstance, service: Service): void {
  const { auth } = service;
  const guard = { preHandler: requireUser(service) };

  app.get('/tokens', guard, async (req) => ({ tokens: auth.listTokens(req.principal!.userId) }));

  app.post('/tokens', guard, async (req, reply) => {
    const body = parseBody(CreateToken, req.body);
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

  app.delete<{ Params: { id: string } }>('/tokens/:id', guard, async (req) => {
    auth.revokeToken(req.principal!.userId, req.params.id);
    return { success: true };
  });
}
