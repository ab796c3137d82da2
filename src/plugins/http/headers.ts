import { PipitError } from '../api/index.ts';
import type { AuthArg } from './request.ts';
import { takeCredentials } from './url.ts';

// RFC 7230 `token`: what a header name may be made of.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const LINE_BREAK = /[\r\n\0]/;
// Header values are byte strings: fetch refuses a character above U+00FF.
const NOT_LATIN1 = /[\u{100}-\u{10ffff}]/u;

/**
 * What is wrong with a header value, or undefined. The value itself is never part of the answer:
 * header values are often credentials, and messages reach the run history and the log.
 */
function valueProblem(value: string): string | undefined {
  if (LINE_BREAK.test(value))
    return 'contains a line break or NUL character (CR, LF or \\0), which would split the request';
  const odd = NOT_LATIN1.exec(value);
  if (odd) {
    return `contains the character U+${odd[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at position ${odd.index + 1}, outside Latin-1, which a header cannot carry`;
  }
  return undefined;
}

/** The arguments {@link buildHeaders} reads. */
export interface HeaderArgs {
  action: string;
  headers?: Record<string, string | number | boolean> | undefined;
  auth?: AuthArg | undefined;
  username?: string | undefined;
  password?: string | undefined;
}

/**
 * The request headers: `headers`, a User-Agent unless set, and credentials from the URL (which are
 * taken out of it), `auth` or `username`/`password`. Names and values are checked first so that a
 * bad one is an INVALID_ARGUMENTS naming the header (or the `auth` field) and never quoting a value.
 *
 * @example
 * buildHeaders({ action: 'http.get', auth: { bearer: 't' } }, new URL('https://x/'), 'Pipit').get('authorization'); // 'Bearer t'
 */
export function buildHeaders(call: HeaderArgs, url: URL, userAgent: string): Headers {
  const headers = new Headers();
  for (const [name, raw] of Object.entries(call.headers ?? {})) {
    if (!TOKEN.test(name)) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${call.action}: "headers": ${JSON.stringify(name)} is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only; no spaces or colons): fix the name`,
      );
    }
    const problem = valueProblem(String(raw));
    if (problem) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${call.action}: "headers": the value of ${JSON.stringify(name)} ${problem}: remove that character`,
      );
    }
    headers.set(name, String(raw));
  }
  if (!headers.has('user-agent')) {
    const problem = valueProblem(userAgent);
    if (problem) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${call.action}: http.user_agent ${problem}: fix it in the configuration`,
      );
    }
    headers.set('user-agent', userAgent);
  }
  const basic = (user: string, password: string) =>
    headers.set('authorization', `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`);
  // Credentials in the address (fetch refuses them there) become Basic auth.
  const inUrl = takeCredentials(call.action, url);
  if (inUrl) basic(...inUrl);
  const auth = call.auth;
  if (Array.isArray(auth)) basic(auth[0], auth[1]);
  else if (auth && 'bearer' in auth) {
    const problem = valueProblem(auth.bearer);
    if (problem) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${call.action}: "auth": the bearer token ${problem}: check the token (a stray line break often comes from a file or an environment variable)`,
      );
    }
    headers.set('authorization', `Bearer ${auth.bearer}`);
  } else if (auth) basic(auth.username, auth.password);
  else if (call.username !== undefined) basic(call.username, call.password ?? '');
  return headers;
}
