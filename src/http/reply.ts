import type { FastifyReply } from 'fastify';
import { toPipitError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { buildResponse } from '../core/messages.ts';
import { httpStatus } from './error-status.ts';
import { redactUrl } from './log.ts';
import { API_HEADERS, setSecurityHeaders } from './security-headers.ts';

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
