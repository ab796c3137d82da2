// HTTP inputs for POST /execute: odd headers, content types, methods, paths and credentials.
import fc from 'fast-check';
import type { AuthKind, HttpInput, Payload } from './common.ts';
import { bytes, requestPayload } from './payloads.ts';

/** A header value of printable ASCII. */
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

const ODD_HEADERS: Array<[string, string]> = [
  ['accept', 'text/html'],
  ['accept', '*/*;q=0'],
  ['accept-encoding', 'gzip, br, zstd'],
  ['content-encoding', 'gzip'],
  ['content-language', '\u00ff'],
  ['x-forwarded-for', '::1, 1.2.3.4, garbage'],
  ['x-forwarded-proto', 'https'],
  ['origin', 'http://evil.example'],
  ['referer', 'javascript:alert(1)'],
  ['cookie', 'session_token=garbage; pipit_session=garbage; other=1'],
  ['cookie', '=;;=;'],
  ['x-csrf-token', 'garbage'],
  ['x-request-id', '../../../'],
  ['user-agent', ''],
  ['x-token', 'garbage'],
  ['x-api-key', 'garbage'],
  ['range', 'bytes=0-1'],
  ['if-none-match', '*'],
  ['x-http-method-override', 'DELETE'],
];

/** A few odd request headers, usually none. */
export const extraHeaders = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  {
    weight: 2,
    arbitrary: fc
      .subarray(ODD_HEADERS, { minLength: 1, maxLength: 3 })
      .map((pairs) => Object.fromEntries(pairs)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.stringMatching(/^x-[a-z0-9-]{1,20}$/), headerValue)
      .map(([k, v]) => ({ [k]: v })),
  },
);

const ODD_CONTENT_TYPES = [
  undefined,
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json;',
  'application/jsonx',
  'application/json, text/plain',
  'application/vnd.api+json',
  'text/plain',
  'text/json',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  '',
  ';',
  'application/',
];

/** Content types for a JSON body: mostly application/json. */
export const jsonContentType = fc.oneof(
  { weight: 20, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_CONTENT_TYPES) },
  { weight: 1, arbitrary: headerValue },
);

/** Credentials that are neither a token nor a token with garbage (in the order both lists draw them). */
export const ODD_AUTH: readonly AuthKind[] = [
  'none',
  'garbage',
  'basic',
  'basic-wrong',
  'tampered',
  'revoked',
  'empty-bearer',
  'cookie',
];

/** Auth kinds: mostly a valid token. */
export const authKind = fc.oneof(
  { weight: 20, arbitrary: fc.constant<AuthKind>('valid') },
  {
    weight: 2,
    arbitrary: fc.constantFrom<AuthKind>('x-token', 'valid-then-garbage', ...ODD_AUTH, 'query'),
  },
);

export function withContentType(
  headers: Record<string, string>,
  contentType: string | undefined,
): Record<string, string> {
  return contentType === undefined ? headers : { ...headers, 'content-type': contentType };
}

/** `POST /execute` requests (and a few other methods and spellings of the path). */
export const executeInput: fc.Arbitrary<HttpInput> = fc
  .record({
    method: fc.oneof(
      { weight: 40, arbitrary: fc.constant('POST') },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
    ),
    path: fc.oneof(
      { weight: 40, arbitrary: fc.constant('/execute') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '/execute?x=1',
          '/execute?token=abc',
          '/execute/',
          '/EXECUTE',
          '//execute',
          '/execute%00',
          '/./execute',
          '/execute;x',
          '/execute?__proto__[x]=1',
          '/%65xecute',
        ),
      },
    ),
    auth: authKind,
    contentType: jsonContentType,
    payload: fc.oneof(
      { weight: 30, arbitrary: requestPayload },
      { weight: 1, arbitrary: bytes.map((data): Payload => ({ label: 'bytes', data })) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    headers: extraHeaders,
  })
  .map(({ method, path, auth, contentType, payload, headers }) => ({
    label: payload?.label ?? 'no-body',
    method,
    path,
    auth,
    headers: withContentType(headers, contentType),
    body: method === 'HEAD' ? undefined : payload?.data,
  }));
