import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { PipitError, toPipitError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { buildResponse } from '../core/messages.ts';
import { httpStatus } from './error-status.ts';
import { redactUrl } from './log.ts';
import { API_HEADERS, setSecurityHeaders } from './security-headers.ts';
import { safeParse } from '../core/safe-parse.ts';

/**
 * What an error answer needs besides the error: the response's `origin` (the `device_id`), and the
 * log where internal errors go (fastify's own request logger is off unless access logs are on).
 */
export interface ErrorReplyContext {
  origin: string;
  log: Logger;
}

/**
 * Sends an error as a response message (never HTML, never a stack trace) with its status, the API
 * security headers, and the headers that go with the error (Retry-After, WWW-Authenticate).
 * Internal errors are logged with their cause; the client gets only the message.
 *
 * @example
 * return sendError(reply, new PipitError('UNAUTHORIZED', 'log in first'), { origin: 'kitchen', log });
 */
export function sendError(reply: FastifyReply, err: unknown, ctx: ErrorReplyContext): FastifyReply {
  const error = toPipitError(err);
  if (error.code === 'INTERNAL' || error.code === 'CONFIG_INVALID') {
    const { id, method, url } = reply.request;
    ctx.log.error(
      { err: error.cause ?? error, reqId: id, method, url: redactUrl(url) },
      'internal error',
    );
  }
  setSecurityHeaders(reply.request, reply, API_HEADERS);
  const status = httpStatus(error.code);
  if (error.code === 'RATE_LIMITED' && error.details.retryAfter)
    reply.header('retry-after', String(error.details.retryAfter));
  if (error.code === 'UNAUTHORIZED') reply.header('www-authenticate', 'Bearer realm="pipit"');
  const body = buildResponse({
    target: 'http',
    origin: ctx.origin,
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
  const result = safeParse(schema, body);
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
