/**
 * Value helpers shared by the expression evaluator, the template resolver, the procedure runner and
 * event matching. They only ever look at *own data* properties, so that user-controlled names such
 * as `__proto__` or `constructor` can never reach a prototype or a function.
 */

/** Property names refused everywhere, even when an object has them as own properties. */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  'prototype',
  'constructor',
]);

/** Longest string any expression or template may produce (characters). */
export const MAX_STRING_LENGTH = 1_000_000;

/** Longest array any expression may produce (elements). */
export const MAX_ARRAY_LENGTH = 100_000;

/**
 * True for a plain data object (object literal, `JSON.parse` result or null-prototype object).
 *
 * @example
 * isPlainObject({ a: 1 }); // true
 * isPlainObject([1]); // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Result of {@link readOwn}: `found` is false when the property does not exist at all. */
export type OwnRead =
  { kind: 'found'; value: unknown } | { kind: 'missing' } | { kind: 'refused'; reason: string };

/**
 * Reads an own data property of an object, array or string; refuses forbidden names, inherited
 * properties and accessors (a getter is code, not data).
 *
 * @example
 * readOwn({ a: 1 }, 'a'); // { kind: 'found', value: 1 }
 * readOwn({}, 'toString'); // { kind: 'refused', ... }
 */
export function readOwn(target: unknown, key: string): OwnRead {
  if (FORBIDDEN_NAMES.has(key)) return { kind: 'refused', reason: `'${key}' is not accessible` };
  if (typeof target === 'string') {
    if (key === 'length') return { kind: 'found', value: target.length };
    if (/^(0|[1-9]\d*)$/.test(key)) {
      const index = Number(key);
      return index < target.length ? { kind: 'found', value: target[index] } : { kind: 'missing' };
    }
    return { kind: 'refused', reason: `strings have no property '${key}'` };
  }
  if (typeof target !== 'object' || target === null) {
    return { kind: 'refused', reason: `cannot read '${key}' of ${typeName(target)}` };
  }
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (descriptor === undefined) {
    return key in target
      ? { kind: 'refused', reason: `'${key}' is inherited, not an own property` }
      : { kind: 'missing' };
  }
  if (!('value' in descriptor)) {
    return { kind: 'refused', reason: `'${key}' is an accessor, not a data property` };
  }
  return { kind: 'found', value: descriptor.value as unknown };
}

/**
 * Defines an own enumerable property of a plain object without ever triggering a setter (so
 * `__proto__` stays data).
 *
 * @example
 * const o = {}; defineOwn(o, '__proto__', 1); Object.keys(o); // ['__proto__']
 */
export function defineOwn(target: object, key: string, value: unknown): void {
  // The targets are plain objects (`{}` or without a prototype), whose only inherited setter is
  // Object.prototype's `__proto__`: every other key is assigned, several times faster than
  // defineProperty (which was ~4% of a YAML web hook's run).
  if (key !== '__proto__') (target as Record<string, unknown>)[key] = value;
  else
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

/**
 * A short type name for error messages: `null`, `array`, `object`, `string`, ...
 *
 * @example
 * typeName([]); // 'array'
 */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Python-style truthiness (Platypush compatibility): `null`, `undefined`, `false`, `0`, `NaN`,
 * `''`, `[]` and `{}` are false.
 *
 * @example
 * isTruthy([]); // false
 * isTruthy('0'); // true
 */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/**
 * Structural equality without coercion: primitives by `Object.is` (except `0 === -0`), arrays and
 * plain objects by own enumerable keys. Depth-bounded so cyclic data cannot hang.
 *
 * @example
 * deepEqual({ a: [1] }, { a: [1] }); // true
 * deepEqual(1, '1'); // false
 */
export function deepEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (depth > 100) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i], depth + 1));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k], depth + 1));
  }
  return false;
}

/**
 * Text form used by `str()` and template interpolation: strings as is, `undefined` as empty text,
 * everything else as JSON (so objects never print as `[object Object]`). Bounded in size.
 *
 * @example
 * toText({ a: 1 }); // '{"a":1}'
 * toText(null); // 'null'
 */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return value.toString();
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  return text ?? `<${typeName(value)}>`;
}
