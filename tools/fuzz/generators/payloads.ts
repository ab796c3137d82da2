// Request payloads as text or bytes: deep nesting (built as text), huge strings, malformed JSON,
// random JSON, random bytes and invalid UTF-8.
import fc from 'fast-check';
import { BODY_LIMIT, MAX_DEPTH } from './common.ts';
import type { Payload } from './common.ts';
import { requestObject } from './requests.ts';

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
export const closedShape = fc.constantFrom<Shape>('array', 'object', 'mixed');

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
export const hugeLength = fc.oneof(
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
