import { PipitError, networkCause } from '../api/index.ts';
import { decodeBody, readLimited, requestBody } from './body.ts';
import type { OutputMode } from './body.ts';
import { buildHeaders } from './headers.ts';
import { backoffSeconds, retryAfterSeconds, sleep } from './retry.ts';
import type { HttpState } from './state.ts';
import { buildUrl, shownUrl } from './url.ts';

/** Credentials: `[user, password]` or `{username, password}` (HTTP Basic), or `{bearer: token}`. */
export type AuthArg =
  [string, string] | { username: string; password: string } | { bearer: string };

/** One call of an http action, arguments validated. */
export interface HttpCall {
  action: string;
  method: string;
  url: string;
  params?: Record<string, unknown>;
  headers?: Record<string, string | number | boolean>;
  json?: unknown;
  data?: string | Record<string, unknown>;
  timeout?: number;
  auth?: AuthArg;
  username?: string;
  password?: string;
  raise_for_status: boolean;
  allow_redirects: boolean;
  max_redirects?: number;
  retries: number;
  backoff: number;
  retry_on: number[];
  output: OutputMode;
}

/** What an http action returns. */
export interface HttpResult {
  status: number;
  headers: Record<string, string | string[]>;
  /** Parsed JSON, text, or base64 (then `body_encoding` says so). */
  body: unknown;
  /** The address that answered, after redirects. */
  url: string;
  body_encoding?: 'base64';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

function preview(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  return line ? `: ${line.length > 300 ? `${line.slice(0, 297)}...` : line}` : '';
}

/** Where one attempt stands while it follows redirects. */
interface Hop {
  url: URL;
  method: string;
  body: string | undefined;
  headers: Headers;
}

// Messages reach the caller, the log and the run history: URLs in them go through shownUrl.
const describeHop = (call: HttpCall, hop: Hop) =>
  `${call.action}: ${hop.method} ${shownUrl(hop.url)}`;

/**
 * Sends the request and follows redirects by hand: each hop is checked against
 * `http.allow_hosts`, a 303 (or a 301/302 after a POST) becomes a GET without body, credentials are
 * dropped when the origin changes, and more than `maxRedirects` hops is an error. Updates `hop`.
 */
async function follow(
  call: HttpCall,
  state: HttpState,
  hop: Hop,
  maxRedirects: number,
  signal: AbortSignal,
): Promise<Response> {
  for (let redirects = 0; ; redirects++) {
    if (state.allow && !state.allow.permits(hop.url)) {
      throw new PipitError(
        'FORBIDDEN',
        `${describeHop(call, hop)}: ${redirects ? 'a redirect leads to ' : ''}host "${hop.url.host}", which is not in http.allow_hosts (${state.allow.entries.join(', ')}): add it to http.allow_hosts in the configuration`,
      );
    }
    const { method, headers, body } = hop;
    const response = await fetch(hop.url, { method, headers, body, redirect: 'manual', signal });
    const location = response.headers.get('location');
    if (!call.allow_redirects || !REDIRECTS.has(response.status) || !location) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, hop.url);
    if (redirects >= maxRedirects) {
      throw new PipitError(
        'UPSTREAM_ERROR',
        `${describeHop(call, hop)}: more than ${maxRedirects} redirects (the last to ${shownUrl(next)}): raise "max_redirects", or call the final address`,
      );
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new PipitError(
        'UPSTREAM_ERROR',
        `${describeHop(call, hop)}: redirected to ${shownUrl(next)}, which is not http:// or https://`,
      );
    }
    // fetch would refuse it, quoting the address with its password.
    if (next.username || next.password) {
      throw new PipitError(
        'UPSTREAM_ERROR',
        `${describeHop(call, hop)}: redirected to ${shownUrl(next)} with a user name or password in the address, which is not followed: call the final address with "auth"`,
      );
    }
    const status = response.status;
    if (
      (status === 303 && method !== 'HEAD') ||
      ((status === 301 || status === 302) && method === 'POST')
    ) {
      hop.method = 'GET';
      hop.body = undefined;
      hop.headers.delete('content-type');
    }
    if (next.origin !== hop.url.origin)
      for (const name of CREDENTIAL_HEADERS) hop.headers.delete(name);
    hop.url = next;
  }
}

function headersOf(response: Response): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) out['set-cookie'] = cookies;
  return out;
}

/**
 * Performs one http action: query parameters, JSON/form/raw bodies, Basic or bearer credentials,
 * redirects (see {@link follow}), a timeout per attempt, a size limit on the body, and opt-in retries
 * with exponential backoff that honour `Retry-After`.
 *
 * @example
 * const res = await httpCall({ action: 'http.get', method: 'GET', url: 'https://example.com', raise_for_status: true, allow_redirects: true, retries: 0, backoff: 1, retry_on: [429], output: 'auto' }, state, signal);
 */
export async function httpCall(
  call: HttpCall,
  state: HttpState,
  signal: AbortSignal,
): Promise<HttpResult> {
  const { config } = state;
  const start = buildUrl(call.action, call.url, call.params);
  const headers = buildHeaders(call, start, config.user_agent);
  const built = requestBody(call.action, call);
  if (built && (call.method === 'GET' || call.method === 'HEAD')) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${call.action}: a ${call.method} request carries no body: pass "params" for the query string, or use http.post`,
    );
  }
  if (built && !headers.has('content-type')) headers.set('content-type', built.type);
  const timeoutMs = (call.timeout ?? config.timeout_seconds) * 1000;
  const maxRedirects = call.max_redirects ?? config.max_redirects;

  for (let attempt = 0; ; attempt++) {
    const hop: Hop = {
      url: start,
      method: call.method,
      body: built?.body,
      headers: new Headers(headers),
    };
    const what = () => describeHop(call, hop);
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const response = await follow(
        call,
        state,
        hop,
        maxRedirects,
        AbortSignal.any([signal, deadline]),
      );
      const bytes =
        hop.method === 'HEAD'
          ? Buffer.alloc(0)
          : await readLimited(response, config.max_response_bytes, what);
      const status = response.status;
      if (attempt < call.retries && call.retry_on.includes(status)) {
        const after = retryAfterSeconds(response.headers.get('retry-after'));
        if (after !== undefined && after > config.max_retry_after_seconds) {
          throw new PipitError(
            'UPSTREAM_ERROR',
            `${what()}: answered ${status} and asks to retry after ${Math.ceil(after)} s, longer than http.max_retry_after_seconds (${config.max_retry_after_seconds})`,
            { details: { status, retryAfter: after } },
          );
        }
        await sleep(after ?? backoffSeconds(attempt + 1, call.backoff), signal);
        continue;
      }
      // An error page is rarely JSON: "json" must not hide the status behind "not JSON".
      const decoded = decodeBody(
        bytes,
        response.headers.get('content-type') ?? '',
        status >= 400 && call.output === 'json' ? 'auto' : call.output,
        what(),
      );
      if (status >= 400 && call.raise_for_status) {
        const retryAfter = response.headers.get('retry-after');
        throw new PipitError(
          'UPSTREAM_ERROR',
          `${what()} answered ${status} ${response.statusText}${retryAfter ? ` (Retry-After: ${retryAfter})` : ''}${decoded.encoding ? '' : preview(decoded.body)}`,
          { details: { status, body: decoded.body } },
        );
      }
      return {
        status,
        headers: headersOf(response),
        body: decoded.body,
        ...(decoded.encoding ? { body_encoding: decoded.encoding } : {}),
        url: hop.url.href,
      };
    } catch (err) {
      if (signal.aborted) {
        throw new PipitError('ACTION_FAILED', `${what()}: interrupted: the caller went away`, {
          cause: err,
        });
      }
      if (err instanceof PipitError) throw err;
      if (attempt < call.retries) {
        await sleep(backoffSeconds(attempt + 1, call.backoff), signal);
        continue;
      }
      if (deadline.aborted) {
        throw new PipitError(
          'TIMEOUT',
          `${what()}: no complete answer within ${timeoutMs / 1000} s: raise "timeout" (seconds) or http.timeout_seconds`,
          { cause: err },
        );
      }
      throw new PipitError('UPSTREAM_ERROR', `${what()} failed: ${networkCause(err)}`, {
        cause: err,
      });
    }
  }
}
