import type { FastifyReply, FastifyRequest } from 'fastify';
import { isSecretName } from '../lib/secret-names.ts';

/**
 * Query parameter names whose values never reach a log line (compared decoded, any case), besides
 * the secret names of the run history (`isSecretName`: `apitoken`, `private_token`...).
 */
const SECRET_PARAMS = new Set([
  'token',
  'code',
  'state',
  'access_token',
  'refresh_token',
  'password',
  'secret',
  'client_secret',
  'api_key',
  'apikey',
  'key',
]);

// A JWT anywhere (say under a name mangled past the query parser): three base64url parts.
const JWT = /eyJ[\w-]*\.[\w-]+\.[\w-]*/g;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * A URL fit for a log line. The query is judged the way servers read it, decoded: a parameter
 * whose decoded name is a credential (`%74oken=`, `tok%65n=`, `token%3D...`, `;token=`) has its
 * value replaced, and anything shaped like a JWT is replaced wherever it is.
 *
 * @example
 * redactUrl('/ws/events?%74oken=abc&x=1'); // '/ws/events?token=[redacted]&x=1'
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(JWT, '[redacted]');
  if (q < 0) return path;
  const parts = url
    .slice(q + 1)
    .split(/([&;])/)
    .map((part) => {
      if (part === '&' || part === ';') return part;
      const decoded = decode(part);
      const eq = decoded.indexOf('=');
      const name = (eq < 0 ? decoded : decoded.slice(0, eq)).trim().toLowerCase();
      if (SECRET_PARAMS.has(name) || isSecretName(name))
        return `${encodeURIComponent(name)}=[redacted]`;
      // Under any other name, a token is still a token.
      return decoded.replace(JWT, '') === decoded ? part : '[redacted]';
    });
  return `${path}?${parts.join('')}`;
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

/**
 * Fastify hooks writing the access lines at debug, with the request id: "incoming request" (the
 * redacted request) and "request completed" (status, time). At the default level a request writes
 * nothing — an access log belongs to the reverse proxy — and fastify's own lines (at info) are off.
 *
 * @example
 * if (log.isLevelEnabled('debug')) {
 *   app.addHook('onRequest', accessLines.onRequest);
 *   app.addHook('onResponse', accessLines.onResponse);
 * }
 */
export const accessLines = {
  onRequest(this: void, req: FastifyRequest, _reply: FastifyReply, done: () => void): void {
    req.log.debug({ req: logSerializers.req(req) }, 'incoming request');
    done();
  },
  onResponse(this: void, req: FastifyRequest, reply: FastifyReply, done: () => void): void {
    req.log.debug(
      { res: logSerializers.res(reply), responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  },
};
