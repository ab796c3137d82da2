import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { PipitError, toPipitError } from '../core/errors.ts';
import { buildResponse } from '../core/messages.ts';
import { httpStatus } from './error-status.ts';

/**
 * Sends an error as a response message (never HTML, never a stack trace) with its status and the
 * headers that go with it (Retry-After, WWW-Authenticate).
 *
 * @example
 * return sendError(reply, new PipitError('UNAUTHORIZED', 'log in first'), 'kitchen');
 */
export function sendError(reply: FastifyReply, err: unknown, origin: string): FastifyReply {
  const error = toPipitError(err);
  if (error.code === 'INTERNAL' || error.code === 'CONFIG_INVALID') {
    reply.log.error({ err: error.cause ?? error }, 'internal error');
  }
  const status = httpStatus(error.code);
  if (error.code === 'RATE_LIMITED' && error.details.retryAfter)
    reply.header('retry-after', String(error.details.retryAfter));
  if (error.code === 'UNAUTHORIZED') reply.header('www-authenticate', 'Bearer realm="pipit"');
  const body = buildResponse({
    target: 'http',
    origin,
    output: undefined,
    errors: error.message.split('\n'),
  });
  return reply
    .code(status === 200 ? 500 : status)
    .type('application/json')
    .send(body);
}

/**
 * Parses a JSON body with a zod schema, or throws BAD_REQUEST naming each bad field.
 *
 * @example
 * const { username } = parseBody(LoginBody, request.body);
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new PipitError(
      'BAD_REQUEST',
      'send a JSON object body with Content-Type: application/json',
    );
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new PipitError(
    'BAD_REQUEST',
    result.error.issues
      .map((i) =>
        i.code === 'unrecognized_keys'
          ? `unknown field ${i.keys.map((k) => `"${k}"`).join(', ')}`
          : `field "${i.path.join('.')}": ${i.message}`,
      )
      .join('\n'),
    { cause: result.error },
  );
}
