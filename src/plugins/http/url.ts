import { isSecretKey, PipitError, redactUrlUserinfo } from '../api/index.ts';
import { formEncode } from './body.ts';

/**
 * The request's address: `url` with `params` appended to its query string. Messages about a bad
 * `url` show it without the password of its user info.
 *
 * @example
 * buildUrl('http.get', 'https://example.com/a', { q: 'x' }).href; // 'https://example.com/a?q=x'
 */
export function buildUrl(action: string, text: string, params?: Record<string, unknown>): URL {
  const shown = JSON.stringify(redactUrlUserinfo(text));
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: "url" ${shown} is not an absolute address such as https://example.com/path`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: "url" ${shown} is not http:// or https://`,
    );
  }
  if (params) formEncode(params, url.searchParams);
  return url;
}

/**
 * Takes the user name and password out of `url` (fetch refuses an address that carries them) and
 * returns them decoded, or undefined when there are none.
 *
 * @example
 * const url = new URL('http://ada:p%40ss@host/');
 * takeCredentials('http.get', url); // ['ada', 'p@ss'], and url.href is 'http://host/'
 */
export function takeCredentials(action: string, url: URL): [string, string] | undefined {
  if (!url.username && !url.password) return undefined;
  let credentials: [string, string];
  try {
    credentials = [decodeURIComponent(url.username), decodeURIComponent(url.password)];
  } catch {
    // The message names neither part: the password must not be quoted, and the user name may be a token.
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: the user name or password in "url" has invalid percent-encoding (a % must start %XX, UTF-8 bytes in hex): write a literal % as %25, or pass the credentials in "auth"`,
    );
  }
  url.username = '';
  url.password = '';
  return credentials;
}

/**
 * A URL as error messages show it: without user info, and with the values of query parameters
 * whose names look secret (`api_key`, `token`, ... as the run history masks them) replaced by
 * `[redacted]`. The rest is kept as written.
 *
 * @example
 * shownUrl(new URL('https://u:p@x/v1?api_key=k&q=1')); // 'https://x/v1?api_key=[redacted]&q=1'
 */
export function shownUrl(url: URL): string {
  const query = url.search
    .slice(1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let key: string;
      try {
        key = decodeURIComponent(pair.slice(0, eq).replaceAll('+', ' '));
      } catch {
        key = pair.slice(0, eq);
      }
      return isSecretKey(key) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${url.protocol}//${url.host}${url.pathname}${query ? `?${query}` : ''}${url.hash}`;
}
