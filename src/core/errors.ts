/**
 * The closed table of Pipit error codes. Every failure that crosses a boundary (HTTP, WebSocket,
 * CLI, library) is a {@link PipitError} carrying one of these codes; transports map the code to
 * their own status in exactly one place (`src/http/error-status.ts` for HTTP).
 */
export const ErrorCodes = [
  /** Malformed JSON, a missing or invalid message field. */
  'BAD_REQUEST',
  /** Arguments that fail the action's schema. */
  'INVALID_ARGUMENTS',
  /** Unknown action, procedure, plugin, hook or route. */
  'NOT_FOUND',
  /** Missing, garbled, expired or revoked credentials. */
  'UNAUTHORIZED',
  /** Authenticated, but not allowed (registration closed, CSRF token missing). */
  'FORBIDDEN',
  /** No user exists yet: register first. */
  'NO_USER',
  /** A resource that already exists (user name taken). */
  'CONFLICT',
  /** Body larger than the configured limit. */
  'PAYLOAD_TOO_LARGE',
  /** Body in a content type the endpoint does not read. */
  'UNSUPPORTED_MEDIA_TYPE',
  /** Request headers larger than the server accepts. */
  'HEADERS_TOO_LARGE',
  /** The client did not send its request (headers or body) in time. */
  'REQUEST_TIMEOUT',
  /** Too many attempts; retry later. */
  'RATE_LIMITED',
  // Above: the client's request is refused (CLIENT_CODES). Below: it could not be carried out.
  /** An action ran and failed (reported in `errors`, HTTP 200 on /execute). */
  'ACTION_FAILED',
  /** An upstream service (e.g. Spotify) failed or is unreachable. */
  'UPSTREAM_ERROR',
  /** Something did not answer in time. */
  'TIMEOUT',
  /** The service is shutting down or a dependency is not ready. */
  'UNAVAILABLE',
  /** A configuration file that cannot be used. */
  'CONFIG_INVALID',
  /** A bug: never shown with details to clients. */
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ErrorCodes)[number];

/**
 * Codes that say the client's request was refused: those of the table before ACTION_FAILED. Their
 * errors are made without a stack trace.
 */
export const CLIENT_CODES: ReadonlySet<ErrorCode> = new Set(
  ErrorCodes.slice(0, ErrorCodes.indexOf('ACTION_FAILED')),
);

/** Extra, client-safe facts about an error (e.g. `retryAfter` seconds for RATE_LIMITED). */
export interface ErrorDetails {
  retryAfter?: number;
  [key: string]: unknown;
}

/**
 * An error with a code from the closed table. The message is shown to clients, so it must name the
 * bad value and the fix, and must never contain secrets; `cause` keeps the underlying error for logs.
 *
 * @example
 * throw new PipitError('INVALID_ARGUMENTS', 'utils.sleep: "seconds" must be a number, got "soon"');
 */
export class PipitError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; details?: ErrorDetails } = {},
  ) {
    // A refusal of what a client sent carries no stack trace: its message says all there is, and
    // capturing one cost ~9 µs, which a flood of bad requests (garbled tokens, unknown actions)
    // multiplies. Pipit's own failures (INTERNAL, UPSTREAM_ERROR, ...) keep theirs.
    const limit = Error.stackTraceLimit;
    if (CLIENT_CODES.has(code)) Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = limit;
    this.name = 'PipitError';
    this.code = code;
    this.details = options.details ?? {};
  }
}

/**
 * Normalises anything thrown into a PipitError. Non-Pipit errors become INTERNAL (message hidden
 * from clients unless `exposeMessage`) or, with `fallback`, that code with the original message.
 *
 * @example
 * const err = toPipitError(new Error('boom'), 'ACTION_FAILED'); // code ACTION_FAILED, message 'boom'
 */
export function toPipitError(err: unknown, fallback?: ErrorCode): PipitError {
  if (err instanceof PipitError) return err;
  if (fallback) {
    const message = err instanceof Error ? err.message : String(err);
    return new PipitError(fallback, message || fallback, { cause: err });
  }
  return new PipitError('INTERNAL', 'internal error (see the service log)', { cause: err });
}

/**
 * True when `err` is a PipitError with the given code.
 *
 * @example
 * if (isPipitError(err, 'NOT_FOUND')) reply.code(404);
 */
export function isPipitError(err: unknown, code?: ErrorCode): err is PipitError {
  return err instanceof PipitError && (code === undefined || err.code === code);
}
