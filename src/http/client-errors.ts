import { nodeHttp } from '../lib/node-http.ts';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { buildResponse } from '../core/messages.ts';
import { httpStatus } from './error-status.ts';
import { API_HEADERS } from './security-headers.ts';

// Node's parser codes (llhttp) for requests that never became a request object, with what the
// client should change. Anything else malformed gets the generic line.
const PARSER_ERRORS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    'HEADERS_TOO_LARGE',
    'the request headers are larger than the server accepts (16 KiB): send fewer or shorter headers',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    'REQUEST_TIMEOUT',
    'the request was not received in time (backend.http.headers_timeout_seconds / request_timeout_seconds): send it whole, without pauses',
  ],
  HPE_INVALID_HEADER_TOKEN: [
    'BAD_REQUEST',
    'a request header has a character that is not allowed (e.g. a NUL or a control character)',
  ],
  HPE_INVALID_CHUNK_SIZE: ['BAD_REQUEST', 'the chunked body is malformed (bad chunk size)'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [
    'BAD_REQUEST',
    'the request has both Content-Length and Transfer-Encoding: send only one',
  ],
  // llhttp's code both for a bad Transfer-Encoding and for one sent with a Content-Length.
  HPE_INVALID_TRANSFER_ENCODING: [
    'BAD_REQUEST',
    'the Transfer-Encoding header is malformed, or sent together with Content-Length: send only one of them',
  ],
  HPE_INVALID_CONTENT_LENGTH: ['BAD_REQUEST', 'the Content-Length header is malformed'],
  HPE_INVALID_METHOD: ['BAD_REQUEST', 'the request method is not valid HTTP'],
  HPE_INVALID_URL: ['BAD_REQUEST', 'the request target (URL) is not valid'],
};

const SECURITY_HEADER_LINES = Object.entries(API_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/**
 * The raw HTTP answer to a request Node's parser refused, as a Pipit response message (status from
 * the one code table), with the API's security headers and `Connection: close`.
 *
 * @example
 * socket.end(clientErrorAnswer('HPE_HEADER_OVERFLOW', 'kitchen'));
 */
export function clientErrorAnswer(
  errorCode: string | undefined,
  origin: string,
  opts: { head?: boolean } = {},
): string {
  const [code, message] = PARSER_ERRORS[errorCode ?? ''] ?? [
    'BAD_REQUEST',
    'the request is not well-formed HTTP/1.1',
  ];
  const status = httpStatus(code);
  const body = JSON.stringify(
    buildResponse({ target: 'http', origin, output: undefined, errors: [message] }),
  );
  return (
    `HTTP/1.1 ${status} ${nodeHttp.STATUS_CODES[status]}\r\n` +
    `content-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    SECURITY_HEADER_LINES +
    // A HEAD request's answer has headers only: a body would be read as the next response.
    `connection: close\r\n\r\n${opts.head ? '' : body}`
  );
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused (oversized or malformed
 * headers, bad chunking, Content-Length with Transfer-Encoding, a client too slow to send it) is
 * answered in Pipit's response format instead of fastify's own, then the connection is closed.
 *
 * @example
 * Fastify({ clientErrorHandler: clientErrorHandler('kitchen', log) });
 */
export function clientErrorHandler(origin: string, log: Logger) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    log.debug({ code: err.code }, `refused a malformed or stalled request: ${err.message}`);
    const raw = (err as { rawPacket?: Buffer }).rawPacket;
    const head = raw?.subarray(0, 5).toString('latin1') === 'HEAD ';
    if (socket.writable) socket.end(clientErrorAnswer(err.code, origin, { head }));
    // A client that does not read its answer must not keep the descriptor.
    setTimeout(() => socket.destroy(), 1000).unref();
  };
}
