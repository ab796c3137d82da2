// fast-check generators of hostile inputs for POST /execute, /ws/requests, /ws/events and
// /hook/<name>: well-formed requests with wrong field types, unknown actions, random JSON values,
// malformed JSON text, deep nesting (up to 10,000 levels, built as text), huge strings, prototype
// keys, unicode, NUL bytes, odd content types and methods, binary and invalid UTF-8 frames.
//
// Every input carries a `label` (what kind of input it is: "request/utils.echo", "deep/echo",
// "malformed"...) so that failures can be grouped, and keeps its payload as text or bytes exactly
// as it goes on the wire.
import fc from 'fast-check';

/** Deepest nesting generated. */
export const MAX_DEPTH = 10_000;
/** `backend.http.max_body_bytes` of the server under test (the default). */
export const BODY_LIMIT = 1_048_576;
/** The `device_id` of the server under test. */
export const DEVICE_ID = 'fuzz-host';

/** A payload as it goes on the wire, and what kind of input it is. */
export interface Payload {
  label: string;
  data: string | Uint8Array;
}

/** How an input authenticates; the drivers turn it into headers with real tokens. */
export type AuthKind =
  | 'valid'
  | 'x-token'
  | 'valid-then-garbage'
  | 'none'
  | 'garbage'
  | 'basic'
  | 'basic-wrong'
  | 'tampered'
  | 'revoked'
  | 'empty-bearer'
  | 'cookie'
  | 'query';

/** Kinds of credentials that must let a request in (HTTP Basic: the user's own password). */
export const VALID_AUTH: ReadonlySet<AuthKind> = new Set(['valid', 'x-token', 'basic']);
/** Kinds of credentials that must never let a request in. */
export const INVALID_AUTH: ReadonlySet<AuthKind> = new Set([
  'none',
  'garbage',
  'basic-wrong',
  'tampered',
  'revoked',
  'empty-bearer',
  'cookie',
  'query',
]);

/** One HTTP request. */
export interface HttpInput {
  label: string;
  method: string;
  path: string;
  auth: AuthKind;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

/** One WebSocket input: a frame on an open connection, or a new connection with odd credentials. */
export type WsInput =
  | { kind: 'frame'; label: string; data: string | Uint8Array; binary: boolean }
  | { kind: 'connect'; label: string; auth: AuthKind; origin: string | undefined };

/** `arb` most of the time, `undefined` otherwise. */
function maybe<T>(arb: fc.Arbitrary<T>, weightSome: number, weightNone: number) {
  return fc.oneof(
    { weight: weightNone, arbitrary: fc.constant(undefined) },
    { weight: weightSome, arbitrary: arb },
  );
}

// ---------------------------------------------------------------------------------------------
// Values

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\ud83d',
  '\ufeff',
  '\u202e',
  '\u2028\u2029',
  '💥',
  'e\u0301',
  '\u00a0',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '${process.exit()}',
  '${1 + 1}',
  "${headers['x-token']}",
  '{{x}}',
  '../../etc/passwd',
  '%00',
  '%s%n',
  '<script>alert(1)</script>',
  "'; DROP TABLE variables; --",
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e999',
  '\r\n',
  '\t',
  '\\',
  '"',
  'ÿ',
];

/** Strings that trip parsers, templates and stores. */
export const nastyString = fc.constantFrom(...NASTY_STRINGS);

/** Short strings of every kind: ASCII, any code point (lone surrogates too), graphemes, nasty. */
export const shortText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 3, arbitrary: nastyString },
);

/** Any text, now and then long (to 20,000 characters). */
export const text = fc.oneof(
  { weight: 12, arbitrary: shortText },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 20_000 }).map((n) => 'x'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(nastyString, fc.integer({ min: 2, max: 2_000 }))
      .map(([s, n]) => s.repeat(n)),
  },
);

/** Object keys, prototype keys included. */
export const key = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'valueOf',
      'hasOwnProperty',
      '__defineGetter__',
      'then',
      'length',
      '',
      ' ',
      'a.b',
      '$gt',
      '${x}',
      '\u0000',
    ),
  },
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);

const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1e308, -1e308, 5e-324, 2 ** 53 + 2, -(2 ** 31), 2 ** 32, 0.1, 3600, -1),
);
const leaf = fc.oneof(text, number, fc.boolean(), fc.constant(null));

/** A JSON-able value: leaves, arrays and objects (prototype keys as own properties). */
export const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    leaf,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** An arguments object. */
export const args = fc.dictionary(key, value, { maxKeys: 5 });

/** An object built from entries, every key an own property (`__proto__` too), in order. */
export function objectOf(entries: Array<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Request messages (POST /execute bodies and /ws/requests frames)

/** Actions of the running service (and a procedure from the fuzz configuration). */
export const KNOWN_ACTIONS = [
  'utils.echo',
  'utils.sleep',
  'variable.set',
  'variable.get',
  'variable.unset',
  'variable.list',
  'inspect.get_plugin',
  'inspect.get_all_plugins',
  'inspect.get_procedures',
  'event.fire',
  'event.kinds',
  'logger.info',
  'procedure.fuzzproc',
] as const;

const oddAction = fc.oneof(
  fc.constantFrom(
    'utils.nope',
    'procedure.nope',
    'nope.echo',
    'utils.__proto__',
    '__proto__.echo',
    'constructor.constructor',
    'utils.constructor',
    'utils.toString',
    'variable.hasOwnProperty',
    'procedure.__proto__',
    'procedure.constructor',
    'hook.send_response',
    'utils.',
    '.echo',
    'utils..echo',
    'ut',
    'utils.echo.extra',
    'UTILS.ECHO',
    'utils.echo ',
    'utils.echo\u0000',
    'utils.ech\u00f6',
    'a'.repeat(257),
    `utils.${'e'.repeat(300)}`,
  ),
  fc
    .tuple(fc.stringMatching(/^[A-Za-z_][\w-]{0,10}$/), fc.stringMatching(/^[A-Za-z_][\w-]{0,10}$/))
    .map(([a, b]) => `${a}.${b}`),
  shortText,
);

const varName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('fuzz_a', 'fuzz_b', 'fuzz_c', 'fuzz_d') },
  { weight: 1, arbitrary: shortText },
);

const sleepSeconds = fc.oneof(
  fc.double({ min: 0, max: 0.005, noNaN: true }),
  fc.constantFrom(
    0,
    -1,
    -0.5,
    3601,
    1e308,
    Infinity,
    '0.001',
    '0',
    'later',
    '',
    null,
    true,
    [],
    {},
  ),
);

const kindName = fc.oneof(
  fc.constantFrom(
    'CustomEvent',
    'pipit.message.event.custom.CustomEvent',
    'platypush.message.event.custom.CustomEvent',
    'svc.CustomEvent',
    'WebhookEvent',
    'ApplicationStartedEvent',
    'ApplicationStoppedEvent',
    'svc.',
    'Custom',
    '__proto__',
    'constructor',
    'toString',
  ),
  shortText,
);

/** An action with arguments shaped for it, or not. */
const call: fc.Arbitrary<[string, unknown]> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constant('utils.echo'), args) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constant('variable.set'),
      fc.dictionary(varName, value, { maxKeys: 3 }) as fc.Arbitrary<unknown>,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constant('variable.get'),
      fc.record({ name: fc.oneof(varName, value), default: value }, { requiredKeys: [] }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('variable.unset'),
      fc.record({ name: fc.oneof(varName, value) }, { requiredKeys: [] }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constantFrom(
        'variable.list',
        'event.kinds',
        'inspect.get_procedures',
        'inspect.get_all_plugins',
      ),
      maybe(args, 1, 3),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('inspect.get_plugin'),
      fc.record({
        name: fc.oneof(
          fc.constantFrom('utils', 'variable', 'inspect', '__proto__', 'constructor', 'nope'),
          value,
        ),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('utils.sleep'),
      fc.record({ seconds: sleepSeconds }, { requiredKeys: [] }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('event.fire'),
      fc.record(
        { subtype: fc.oneof(shortText, value), args: fc.oneof(args, value), kind: kindName },
        { requiredKeys: [] },
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('logger.info'),
      fc.record({ msg: fc.oneof(text, value) }, { requiredKeys: [] }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('procedure.fuzzproc'),
      fc.record({ v: value }, { requiredKeys: [] }),
    ),
  },
  { weight: 2, arbitrary: fc.tuple(oddAction, maybe(args, 3, 1)) },
);

const requestId = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 129, maxLength: 200 }) },
  { weight: 1, arbitrary: number },
  { weight: 1, arbitrary: value },
);

/** A request message as an object: mostly well formed, often with one field of the wrong type. */
export const requestObject = fc
  .record({
    call,
    type: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom('request', 'requests') },
      { weight: 1, arbitrary: value },
    ),
    id: maybe(requestId, 2, 1),
    target: maybe(fc.oneof(fc.constant(DEVICE_ID), shortText, value), 1, 8),
    wrongAction: maybe(value, 1, 15),
    wrongArgs: maybe(value, 1, 12),
    extra: maybe(fc.dictionary(key, value, { minKeys: 1, maxKeys: 2 }), 1, 8),
    drop: maybe(fc.constantFrom('type', 'action'), 1, 20),
  })
  .map(({ call: [action, callArgs], type, id, target, wrongAction, wrongArgs, extra, drop }) => {
    const entries: Array<[string, unknown]> = [
      ['type', drop === 'type' ? undefined : type],
      ['action', drop === 'action' ? undefined : (wrongAction ?? action)],
      ['args', wrongArgs ?? callArgs],
      ['id', id],
      ['target', target],
      ...Object.entries(extra ?? {}),
    ];
    const known = (KNOWN_ACTIONS as readonly string[]).includes(action);
    return {
      label: `request/${wrongAction === undefined && known ? action : 'other'}`,
      message: objectOf(entries),
    };
  });

/** Nesting shapes: `[[[...]]]`, `{"a":{"a":...}}`, both alternating, or never closed. */
export type Shape = 'array' | 'object' | 'mixed' | 'unclosed';

/** JSON text nested `depth` levels deep, built as a string. */
export function nested(depth: number, shape: Shape): string {
  switch (shape) {
    case 'array':
      return '['.repeat(depth) + ']'.repeat(depth);
    case 'object':
      return '{"a":'.repeat(depth) + '0' + '}'.repeat(depth);
    case 'mixed': {
      const half = Math.ceil(depth / 2);
      return '[{"a":'.repeat(half) + '1' + '}]'.repeat(half);
    }
    case 'unclosed':
      return '['.repeat(depth);
  }
}

/** A nesting depth: shallow, medium or deep (to {@link MAX_DEPTH}). */
export const depth = fc.oneof(
  fc.integer({ min: 1, max: 150 }),
  fc.integer({ min: 150, max: 3_000 }),
  fc.integer({ min: 3_000, max: MAX_DEPTH }),
);
const closedShape = fc.constantFrom<Shape>('array', 'object', 'mixed');

/** Deeply nested JSON at the top level and inside every field of a request message. */
export const deepRequest = fc
  .record({
    depth,
    shape: closedShape,
    place: fc.constantFrom(
      'top',
      'unclosed',
      'echo',
      'echo-list',
      'set',
      'get-default',
      'proc',
      'fire',
      'args',
      'id',
      'action',
      'type',
      'target',
    ),
  })
  .map(({ depth: d, shape, place }): Payload => {
    const deep = nested(d, shape);
    const req = (rest: string) => `{"type":"request",${rest}}`;
    const data = {
      top: deep,
      unclosed: nested(d, 'unclosed'),
      echo: req(`"action":"utils.echo","args":{"v":${deep}},"id":"deep-${d}"`),
      'echo-list': req(`"action":"utils.echo","args":{"v":[1,"a",${deep},null]}`),
      set: req(`"action":"variable.set","args":{"fuzz_deep":${deep}}`),
      'get-default': req(`"action":"variable.get","args":{"name":"fuzz_nope","default":${deep}}`),
      proc: req(`"action":"procedure.fuzzproc","args":{"v":${deep}}`),
      fire: req(`"action":"event.fire","args":{"subtype":"deep","args":{"v":${deep}}}`),
      args: req(`"action":"utils.echo","args":${deep}`),
      id: req(`"action":"utils.echo","id":${deep}`),
      action: req(`"action":${deep}`),
      type: `{"type":${deep},"action":"utils.echo"}`,
      target: req(`"action":"utils.echo","target":${deep}`),
    }[place];
    return { label: `deep/${place}`, data };
  });

/** Lengths around and over the body limit. */
const hugeLength = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 10_000, max: 200_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: BODY_LIMIT - 128, max: BODY_LIMIT + 64 }) },
  { weight: 1, arbitrary: fc.integer({ min: 200_000, max: BODY_LIMIT }) },
  { weight: 1, arbitrary: fc.integer({ min: BODY_LIMIT + 1, max: BODY_LIMIT + 65_536 }) },
);

/** Huge strings, arrays, key sets, action names and ids. */
export const hugeRequest = fc
  .record({
    n: hugeLength,
    kind: fc.constantFrom('string', 'array', 'keys', 'action', 'id', 'unicode'),
  })
  .map(({ n, kind }): Payload => {
    const echo = (v: string) => `{"type":"request","action":"utils.echo","args":{"v":${v}}}`;
    const keyCount = Math.floor(n / 12);
    const data = {
      string: () => echo(`"${'x'.repeat(n)}"`),
      array: () => echo(`[${'0,'.repeat(Math.floor(n / 2))}0]`),
      keys: () =>
        `{"type":"request","action":"utils.echo","args":{${Array.from({ length: keyCount }, (_, i) => `"k${i}":0`).join(',')}}}`,
      action: () => `{"type":"request","action":"utils.${'e'.repeat(n)}"}`,
      id: () => `{"type":"request","action":"utils.echo","id":"${'i'.repeat(n)}"}`,
      unicode: () => echo(`"${'💥'.repeat(Math.floor(n / 4))}"`),
    }[kind]();
    return { label: `huge/${kind}`, data };
  });

const MALFORMED = [
  '',
  ' ',
  '\n',
  '{',
  '}',
  '[',
  ']',
  '{"type":"request"',
  '{"type":"request",}',
  "{'type':'request','action':'utils.echo'}",
  'null',
  'true',
  'false',
  '0',
  '-1',
  '"request"',
  '[]',
  '{}',
  '[{"type":"request","action":"utils.echo"}]',
  'undefined',
  'NaN',
  'Infinity',
  '-',
  '1e99999',
  '\u0000',
  '{"type":"request","action":"utils.echo"}\u0000',
  '{"type":"request","action":"utils.echo"}{"b":2}',
  '\ufeff{"type":"request","action":"utils.echo"}',
  '{"type":"request","action":"utils.echo","args":{"s":"\\ud800"}}',
  '{"type":"request","action":"utils.echo","args":{"s":"\\u0000"}}',
  '{"type":"request","action":"utils.echo","args":{"s":"a\u0000b"}}',
  '{"a" 1}',
  '{"type":"\\u0072equest","action":"utils.echo"}',
  '{"type":"request","action":"utils.echo","args":{"a":1,"a":2}}',
  '{"type":"request","action":"utils.echo","type":"nope"}',
  '{"__proto__":{"type":"request","action":"utils.echo"}}',
  '{"type":"request","action":"utils.echo","__proto__":{"polluted":true}}',
  '{"type":"request","action":"utils.echo","args":{"__proto__":{"polluted":true}}}',
  '{"type":"request","action":"utils.echo","args":{"constructor":{"prototype":{"polluted":true}}}}',
  '{"type":"request","action":"variable.set","args":{"__proto__":{"polluted":true}}}',
  '{"type":"request","action":"utils.echo","args":{"n":123456789012345678901234567890}}',
  '{"type":"request","action":"utils.echo","args":{"n":1e400}}',
  '{"type":"request","action":"utils.echo","args":{"n":-0}}',
  '{"type":"request","action":"utils.echo","args":{"n":0.1e-400}}',
  '/* comment */ {"type":"request","action":"utils.echo"}',
  '{"type":"request","action":"utils.echo",}',
  '{"type":"request","action":"utils.echo"',
  '{"type":"request","action":"utils.echo","args":[1,2,3]}',
  '{"type":"request","action":"utils.echo","args":null}',
  '{"type":"request","action":"utils.echo","args":"a=1"}',
  '{"type":"request","action":"utils.echo","id":null}',
  '{"type":"request","action":"utils.echo","id":{"toString":1}}',
  '{"type":["request"],"action":"utils.echo"}',
  '{"type":"request","action":["utils.echo"]}',
  '{"type":"request","action":"utils.sleep","args":{"seconds":"1e-9"}}',
  '{"type":"request","action":"utils.sleep","args":{"seconds":"0x10"}}',
  '{"type":"request","action":"variable.get","args":{"name":"fuzz_a","default":{"__proto__":{"x":1}}}}',
];

/** A request message (JSON text) labelled by its action. */
export const requestText = requestObject.map(({ label, message }): Payload => ({
  label,
  data: JSON.stringify(message),
}));

/** Malformed JSON: fixed cases, truncated and corrupted requests, random text. */
export function malformedFrom(valid: fc.Arbitrary<Payload>): fc.Arbitrary<Payload> {
  const asText = (p: Payload) => (typeof p.data === 'string' ? p.data : '');
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(...MALFORMED).map((data) => ({ label: 'malformed/fixed', data })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat()).map(([p, k]) => {
        const t = asText(p);
        return { label: 'malformed/truncated', data: t.slice(0, k % Math.max(1, t.length)) };
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.nat(),
          fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '\u0000', 'x', ' ', '\ud800'),
        )
        .map(([p, k, c]) => {
          const t = asText(p);
          const at = k % Math.max(1, t.length);
          return { label: 'malformed/corrupted', data: t.slice(0, at) + c + t.slice(at) };
        }),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'binary', maxLength: 64 })
        .map((data) => ({ label: 'malformed/random', data })),
    },
  );
}

/** Random JSON values of any type. */
export const randomJson = fc.json({ maxDepth: 4 }).map((data) => ({ label: 'json', data }));

/** Bytes: random, invalid UTF-8, a BOM before JSON. */
export const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 256 }),
  fc.constantFrom(
    Uint8Array.from([0xff, 0xfe]),
    Uint8Array.from([0xc3]),
    Uint8Array.from([0xed, 0xa0, 0x80]),
    Uint8Array.from([0xf4, 0x90, 0x80, 0x80]),
    Uint8Array.from([0xc0, 0xaf]),
    Uint8Array.from(
      Buffer.from('{"type":"request","action":"utils.echo","args":{"s":"\xff"}}', 'latin1'),
    ),
    Uint8Array.from(Buffer.from('\ufeff{"type":"request","action":"utils.echo"}')),
    Uint8Array.from(Buffer.from('{"type":"request","action":"utils.echo"}', 'utf16le')),
  ),
);

/** Bytes that are not valid UTF-8. */
export const invalidUtf8 = bytes.filter((b) => !isUtf8(b));

/** True when the bytes are valid UTF-8. */
export function isUtf8(data: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

/** Everything that may arrive where a request message is expected. */
export const requestPayload: fc.Arbitrary<Payload> = fc.oneof(
  { weight: 14, arbitrary: requestText },
  { weight: 2, arbitrary: randomJson },
  { weight: 3, arbitrary: malformedFrom(requestText) },
  { weight: 3, arbitrary: deepRequest },
  { weight: 1, arbitrary: hugeRequest },
);

// ---------------------------------------------------------------------------------------------
// HTTP

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

/** Auth kinds: mostly a valid token. */
export const authKind = fc.oneof(
  { weight: 20, arbitrary: fc.constant<AuthKind>('valid') },
  {
    weight: 2,
    arbitrary: fc.constantFrom<AuthKind>(
      'x-token',
      'valid-then-garbage',
      'none',
      'garbage',
      'basic',
      'basic-wrong',
      'tampered',
      'revoked',
      'empty-bearer',
      'cookie',
      'query',
    ),
  },
);

function withContentType(
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

const hookQuery = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.tuple(key, shortText), { maxLength: 4 })
      .map(
        (pairs) =>
          `?${new URLSearchParams(
            pairs.map(([k, v]) => [
              k.replace(/[\ud800-\udfff]/g, '?'),
              v.replace(/[\ud800-\udfff]/g, '?'),
            ]),
          ).toString()}`,
      ),
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
        fc
          .array(fc.tuple(key, shortText), { maxLength: 4 })
          .map((pairs) =>
            new URLSearchParams(
              pairs.map(([k, v]) => [
                k.replace(/[\ud800-\udfff]/g, '?'),
                v.replace(/[\ud800-\udfff]/g, '?'),
              ]),
            ).toString(),
          ),
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

// ---------------------------------------------------------------------------------------------
// WebSockets

const connectInput = fc
  .record({
    auth: fc.constantFrom<AuthKind>(
      'valid',
      'x-token',
      'query',
      'none',
      'garbage',
      'basic',
      'basic-wrong',
      'tampered',
      'revoked',
      'empty-bearer',
      'cookie',
      'valid-then-garbage',
    ),
    origin: fc.constantFrom(undefined, 'http://evil.example', 'null', ''),
  })
  .map(({ auth, origin }): WsInput => ({
    kind: 'connect',
    label: `connect/${auth}`,
    auth,
    origin,
  }));

function frames(payload: fc.Arbitrary<Payload>): fc.Arbitrary<WsInput> {
  return fc.oneof(
    {
      weight: 40,
      arbitrary: payload.map((p): WsInput => ({
        kind: 'frame',
        label: p.label,
        data: p.data,
        binary: false,
      })),
    },
    {
      weight: 2,
      arbitrary: bytes.map((data): WsInput => ({
        kind: 'frame',
        label: 'binary',
        data,
        binary: true,
      })),
    },
    {
      weight: 1,
      arbitrary: payload.map((p): WsInput => ({
        kind: 'frame',
        label: `binary/${p.label}`,
        data: p.data,
        binary: true,
      })),
    },
    {
      weight: 1,
      arbitrary: invalidUtf8.map((data): WsInput => ({
        kind: 'frame',
        label: 'invalid-utf8',
        data,
        binary: false,
      })),
    },
    { weight: 1, arbitrary: connectInput },
  );
}

/** `/ws/requests` inputs: request frames of every kind, binary frames, odd connections. */
export const wsRequestsInput = frames(requestPayload);

/** An event message or a subscribe frame, often with fields of the wrong type. */
export const eventObject = fc
  .record({
    type: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('event', 'subscribe') },
      { weight: 1, arbitrary: fc.constantFrom('events', 'Event', 'unsubscribe', 'request') },
      { weight: 1, arbitrary: value },
    ),
    args: fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .record(
            {
              type: fc.oneof({ weight: 5, arbitrary: kindName }, { weight: 1, arbitrary: value }),
              subtype: fc.oneof(shortText, value),
              args: fc.oneof({ weight: 4, arbitrary: args }, { weight: 1, arbitrary: value }),
              extra: maybe(fc.dictionary(key, value, { minKeys: 1, maxKeys: 2 }), 1, 4),
            },
            { requiredKeys: ['type'] },
          )
          .map(({ extra, ...fields }) =>
            objectOf([...Object.entries(fields), ...Object.entries(extra ?? {})]),
          ),
      },
      { weight: 1, arbitrary: value },
    ),
    events: fc.oneof(
      { weight: 6, arbitrary: fc.array(kindName, { maxLength: 5 }) },
      { weight: 1, arbitrary: fc.array(kindName, { minLength: 199, maxLength: 205 }) },
      { weight: 1, arbitrary: value },
    ),
    id: maybe(requestId, 1, 2),
    both: fc.boolean(),
    extra: maybe(fc.dictionary(key, value, { minKeys: 1, maxKeys: 2 }), 1, 8),
  })
  .map(({ type, args: eventArgs, events, id, both, extra }): Payload => {
    const entries: Array<[string, unknown]> = [
      ['type', type],
      ['args', type === 'subscribe' && !both ? undefined : eventArgs],
      ['events', type === 'event' && !both ? undefined : events],
      ['id', id],
      ...Object.entries(extra ?? {}),
    ];
    return {
      label: `event/${typeof type === 'string' ? type : 'other'}`,
      data: JSON.stringify(objectOf(entries)),
    };
  });

/** Deep nesting in event frames. */
export const deepEvent = fc
  .record({
    depth,
    shape: closedShape,
    place: fc.constantFrom('top', 'unclosed', 'args', 'event-args', 'subtype', 'events', 'id'),
  })
  .map(({ depth: d, shape, place }): Payload => {
    const deep = nested(d, shape);
    const data = {
      top: deep,
      unclosed: nested(d, 'unclosed'),
      args: `{"type":"event","args":{"type":"CustomEvent","subtype":"deep","args":{"v":${deep}}}}`,
      'event-args': `{"type":"event","args":${deep}}`,
      subtype: `{"type":"event","args":{"type":"CustomEvent","subtype":${deep}}}`,
      events: `{"type":"subscribe","events":${deep}}`,
      id: `{"type":"event","id":${deep},"args":{"type":"CustomEvent","subtype":"deep"}}`,
    }[place];
    return { label: `deep/${place}`, data };
  });

/** Huge event frames. */
export const hugeEvent = fc
  .record({ n: hugeLength, kind: fc.constantFrom('args', 'subtype', 'events') })
  .map(({ n, kind }): Payload => {
    const data = {
      args: `{"type":"event","args":{"type":"CustomEvent","subtype":"huge","args":{"v":"${'x'.repeat(n)}"}}}`,
      subtype: `{"type":"event","args":{"type":"CustomEvent","subtype":"${'s'.repeat(n)}"}}`,
      events: `{"type":"subscribe","events":[${'"CustomEvent",'.repeat(Math.floor(n / 14))}"CustomEvent"]}`,
    }[kind];
    return { label: `huge/${kind}`, data };
  });

/** Everything that may arrive on `/ws/events`. */
export const eventPayload: fc.Arbitrary<Payload> = fc.oneof(
  { weight: 14, arbitrary: eventObject },
  { weight: 2, arbitrary: randomJson },
  { weight: 3, arbitrary: malformedFrom(eventObject) },
  { weight: 3, arbitrary: deepEvent },
  { weight: 1, arbitrary: hugeEvent },
);

/** `/ws/events` inputs. */
export const wsEventsInput = frames(eventPayload);
