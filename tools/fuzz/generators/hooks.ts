// HTTP inputs for /hook/<name>: every method (and odd ones), names, queries, headers and bodies.
import fc from 'fast-check';
import type { AuthKind, HttpInput, Payload } from './common.ts';
import { extraHeaders, withContentType } from './http.ts';
import {
  bytes,
  deepRequest,
  hugeRequest,
  malformedFrom,
  randomJson,
  requestText,
} from './payloads.ts';
import { key, shortText, text } from './values.ts';

/** Hook names with a listener in the fuzz configuration. */
export const LISTENED_HOOKS = ['fuzz', 'fuzzdata', 'fuzzanswer'] as const;

const hookName = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom<string>(...LISTENED_HOOKS) },
  { weight: 3, arbitrary: fc.stringMatching(/^[\w.-]{1,20}$/) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.constantFrom(
        '',
        '.',
        '..',
        'a'.repeat(129),
        'a'.repeat(300),
        'fuzz%00',
        'fuzz%2F..',
        'fuzz/extra',
        '/fuzz',
        'fuzz%20',
        '%2e%2e',
        'caf\u00e9',
        '__proto__',
        'constructor',
        'hasOwnProperty',
        'fuzz;x',
        '%ff',
        '%',
      ),
      shortText.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'))),
    ),
  },
);

/** Up to 4 random key=value pairs, URL-encoded (lone surrogates replaced: they cannot be encoded). */
const formPairs = fc
  .array(fc.tuple(key, shortText), { maxLength: 4 })
  .map((pairs) =>
    new URLSearchParams(
      pairs.map(([k, v]) => [
        k.replace(/[\ud800-\udfff]/g, '?'),
        v.replace(/[\ud800-\udfff]/g, '?'),
      ]),
    ).toString(),
  );

const hookQuery = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: formPairs.map((form) => `?${form}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?a=%zz',
      '?%',
      '?&&&=',
      '?a[b]=1',
      '?__proto__=x&__proto__=y',
      '?constructor[prototype][x]=1',
      '?a=1&a=2&a=3',
      `?${'a=1&'.repeat(2_000)}`,
      `?${'k'.repeat(6_000)}=1`,
      '?x=%00',
      '?;',
      '?=',
      '?a=%C3%28',
    ),
  },
);

const HOOK_CONTENT_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/xml',
  '*/*',
  '',
];

/** Bodies a web hook may get: JSON of every kind, forms, text, bytes, nothing. */
const hookBody = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.oneof(
          { weight: 3, arbitrary: randomJson },
          { weight: 2, arbitrary: requestText },
          { weight: 2, arbitrary: malformedFrom(randomJson) },
          { weight: 2, arbitrary: deepRequest },
          { weight: 1, arbitrary: hugeRequest },
        ),
        fc.oneof(
          { weight: 6, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: fc.constantFrom(...HOOK_CONTENT_TYPES) },
        ),
      )
      .map(([p, ct]) => ({ payload: p, contentType: ct })),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          'a=1&a=2&b=',
          '__proto__[x]=1&constructor=2',
          '%zz=%zz',
          '&&&',
          '=',
          'a=%00',
          'a'.repeat(10_000),
        ),
        formPairs,
      )
      .map((data) => ({
        payload: { label: 'form', data },
        contentType: 'application/x-www-form-urlencoded',
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(text, fc.constantFrom(undefined, ...HOOK_CONTENT_TYPES))
      .map(([data, contentType]) => ({ payload: { label: 'text', data }, contentType })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(bytes, fc.constantFrom(undefined, ...HOOK_CONTENT_TYPES))
      .map(([data, contentType]) => ({
        payload: { label: 'bytes', data },
        contentType,
      })),
  },
  {
    weight: 2,
    arbitrary: fc.constant({ payload: undefined as Payload | undefined, contentType: undefined }),
  },
);

/** `/hook/<name>` requests: every method (and odd ones), names, queries, headers and bodies. */
export const hookInput: fc.Arbitrary<HttpInput> = fc
  .record({
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'HEAD',
          'OPTIONS',
          'PROPFIND',
          'SEARCH',
          'PURGE',
          'TRACE',
          'FOO',
          'get',
          'M-SEARCH',
        ),
      },
    ),
    name: hookName,
    query: hookQuery,
    body: hookBody,
    headers: extraHeaders,
    auth: fc.constantFrom<AuthKind>('none', 'none', 'none', 'valid', 'garbage'),
  })
  .map(({ method, name, query, body, headers, auth }) => {
    const noBody = method === 'HEAD' || method === 'TRACE';
    return {
      label: `${LISTENED_HOOKS.includes(name as 'fuzz') ? name : 'other'}/${body.payload?.label ?? 'no-body'}`,
      method,
      path: `/hook/${name}${query}`,
      auth,
      headers: noBody ? headers : withContentType(headers, body.contentType),
      body: noBody ? undefined : body.payload?.data,
    };
  });
