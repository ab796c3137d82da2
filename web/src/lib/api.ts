// The response message of `POST /execute` (and the body of every error the server sends), from the
// server's own schema (type-only: nothing is bundled).
import type { ResponseMessage } from '../../../src/http/wire/answers.ts';

export type { ResponseMessage };

/** A failed API call: the HTTP status and the server's error messages. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: string[];
  readonly retryAfter?: number;

  constructor(status: number, errors: string[], retryAfter?: number) {
    super(errors.join('; ') || `request failed with HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors.length ? errors : [this.message];
    this.retryAfter = retryAfter;
  }
}

let csrfToken: string | null = null;
let onSessionLost: (() => void) | undefined;

/** Remembers the session's CSRF token; every state-changing call sends it. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when a call made with the session answers 401 (expired or logged out elsewhere). */
export function setSessionLostHandler(handler: (() => void) | undefined): void {
  onSessionLost = handler;
}

function errorsOf(body: unknown): string[] {
  // Not necessarily a response message: a proxy's error page, for one.
  const errors = (body as Partial<ResponseMessage> | null)?.response?.errors as unknown;
  return Array.isArray(errors) ? errors.filter((e) => typeof e === 'string') : [];
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null; // an HTML error page from a proxy, for example
  }
}

/** A raw call: status, parsed JSON body (null when not JSON) and how long it took. */
export async function request(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; headers: Headers; durationMs: number }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const started = performance.now();
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const durationMs = performance.now() - started;
  const parsed = parseJson(text);
  // A 401 on anything but the login form itself means the session is gone.
  if (res.status === 401 && path !== '/login') onSessionLost?.();
  return { status: res.status, body: parsed, headers: res.headers, durationMs };
}

/**
 * Calls the JSON API and returns the body; a non-2xx status throws an {@link ApiError} holding
 * the server's messages.
 *
 * @example
 * const { tokens } = await api<{ tokens: Token[] }>('GET', '/tokens');
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await request(method, path, body);
  if (res.status >= 200 && res.status < 300) return res.body as T;
  const retry = Number(res.headers.get('retry-after'));
  throw new ApiError(res.status, errorsOf(res.body), Number.isFinite(retry) ? retry : undefined);
}

/** Turns anything thrown into messages fit to show (network failures included). */
export function messagesOf(err: unknown): string[] {
  if (err instanceof ApiError) {
    if (err.status === 429 && err.retryAfter)
      return [...err.errors, `Try again in ${err.retryAfter} s.`];
    return err.errors;
  }
  if (err instanceof TypeError) return ['The server cannot be reached. Is Pipit running?'];
  return [err instanceof Error ? err.message : String(err)];
}

/** Reports a lost session found outside `fetch` (e.g. a WebSocket closed with 1008). */
export function reportSessionLost(): void {
  onSessionLost?.();
}
