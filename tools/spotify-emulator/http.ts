import type { IncomingHttpHeaders } from 'node:http';

/** What a handler returns; the server turns it into bytes. */
export interface Reply {
  status: number;
  /** JSON body (serialised with `application/json; charset=utf-8`). */
  json?: unknown;
  /** Raw body with its own content type (text, HTML). */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A parsed request as handlers see it. */
export interface EmuRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON or form body; `undefined` when there is none. */
  body: unknown;
  rawBody: string;
  /** `http://127.0.0.1:PORT`, used for absolute `href`/`next` URLs. */
  origin: string;
}

/** A Web API error: rendered as `{"error":{"status","message","reason"?}}`. */
export class ApiError extends Error {
  readonly status: number;
  readonly reason: string | undefined;

  /**
   * @example
   * throw new ApiError(400, 'Invalid limit');
   */
  constructor(status: number, message: string, reason?: string) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

/** An RFC 6749 token-endpoint error: `{"error","error_description"}`. */
export class OAuthError extends Error {
  readonly error: string;
  readonly status: number;

  /**
   * @example
   * throw new OAuthError('invalid_grant', 'Invalid authorization code');
   */
  constructor(error: string, description: string, status = 400) {
    super(description);
    this.error = error;
    this.status = status;
  }
}

/**
 * The Web API error body for a status/message/reason.
 * @example
 * errorReply(404, 'Device not found');
 */
export function errorReply(status: number, message: string, reason?: string): Reply {
  const error: Record<string, unknown> = { status, message };
  if (reason !== undefined) error.reason = reason;
  return { status, json: { error } };
}

/**
 * Player errors carry a `reason` (`NO_ACTIVE_DEVICE`, `PREMIUM_REQUIRED`, ...).
 * @example
 * throw playerError(404, 'No active device found', 'NO_ACTIVE_DEVICE');
 */
export function playerError(status: number, what: string, reason: string): ApiError {
  return new ApiError(status, `Player command failed: ${what}`, reason);
}

/**
 * A JSON object body or a 400, for endpoints that require one.
 * @example
 * const body = jsonObject(req);
 */
export function jsonObject(req: EmuRequest): Record<string, unknown> {
  if (req.body === undefined || req.body === null) return {};
  if (typeof req.body !== 'object' || Array.isArray(req.body)) {
    throw new ApiError(400, 'Error parsing json');
  }
  return req.body as Record<string, unknown>;
}

/**
 * An optional integer query parameter; anything else than digits gives the API's 400.
 * @example
 * const pos = intParam(req.query, 'position_ms', 'Invalid position_ms');
 */
export function intParam(
  query: URLSearchParams,
  name: string,
  message: string,
): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw new ApiError(400, message);
  return Number(raw);
}
