import type { ErrorCode } from '../core/errors.ts';

/**
 * The one place error codes become HTTP statuses. ACTION_FAILED is 200: on `/execute` an action that
 * ran and failed is a successful request whose response carries `errors` (JSON-RPC style).
 */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  BAD_REQUEST: 400,
  INVALID_ARGUMENTS: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  NO_USER: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  RATE_LIMITED: 429,
  ACTION_FAILED: 200,
  INTERNAL: 500,
  CONFIG_INVALID: 500,
  UPSTREAM_ERROR: 502,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
};

/**
 * The HTTP status for an error code.
 *
 * @example
 * httpStatus('NO_USER'); // 412
 */
export function httpStatus(code: ErrorCode): number {
  return HTTP_STATUS[code];
}
