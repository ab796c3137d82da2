// Values: nasty strings, keys (prototype keys, unicode, NUL bytes), numbers and random JSON-like
// values, for the args of requests and the fields of events.
import fc from 'fast-check';

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

export const number = fc.oneof(
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
