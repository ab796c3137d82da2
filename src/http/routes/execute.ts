import type { FastifyInstance } from 'fastify';
import type { Service } from '../../service.ts';
import { httpStatus } from '../error-status.ts';
import { requireUser } from '../guard.ts';

/**
 * `POST /execute`: the JSON-RPC style entry point. 200 when the request was understood and run
 * (an action that failed is still 200, with `errors`); otherwise the status of the error code.
 *
 * @example
 * curl -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
 *   -d '{"type":"request","action":"utils.echo","args":{"text":"hi"}}' http://localhost:8008/execute
 */
export function executeRoute(app: FastifyInstance, service: Service): void {
  app.post('/execute', { preHandler: requireUser(service) }, async (req, reply) => {
    const controller = new AbortController();
    // The client hanging up mid-action aborts it (sleep, Spotify paging) instead of running on.
    const onClose = () => {
      if (!reply.sent) controller.abort();
    };
    req.raw.once('close', onClose);
    try {
      const { message, error } = await service.execute(req.body, {
        target: 'http',
        signal: controller.signal,
      });
      if (error?.code === 'RATE_LIMITED' && error.details.retryAfter)
        reply.header('retry-after', String(error.details.retryAfter));
      return reply.code(error ? httpStatus(error.code) : 200).send(message);
    } finally {
      req.raw.off('close', onClose);
    }
  });
}
