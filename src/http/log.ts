import type { FastifyReply, FastifyRequest } from 'fastify';

const SECRET_PARAMS = /([?&](?:token|code|state|access_token|refresh_token)=)[^&]*/gi;

/**
 * A URL fit for a log line: the values of credential-bearing query parameters (`?token=` on
 * WebSockets, OAuth `code`/`state`) are replaced.
 *
 * @example
 * redactUrl('/ws/events?token=abc'); // '/ws/events?token=[redacted]'
 */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Serializers for fastify's request log lines: no headers, no query secrets. */
export const logSerializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: redactUrl(req.url),
    remoteAddress: req.ip,
  }),
  res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
};
