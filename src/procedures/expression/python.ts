/**
 * Python value semantics for plain data: `str()`/`repr()` text, ordering (`<`, `sorted`, `min`),
 * iteration, characters as code points (`len('😀')` is 1), slices and Python's whitespace. Values are
 * JSON-like: strings, numbers (an integral number is an int), booleans, `null` (None; `undefined`,
 * a missing property, reads as None too), arrays (lists and tuples) and plain objects (dicts).
 */
import { floatRepr } from './decimal.ts';
import { MAX_ARRAY_LENGTH, MAX_STRING_LENGTH, isPlainObject, typeName } from '../values.ts';

/**
 * Thrown by a function or method on bad arguments; the evaluator adds the expression text and the
 * code (INVALID_ARGUMENTS).
 *
 * @example
 * throw new FunctionArgumentError('len() takes 1 argument(s), got 2');
 */
export class FunctionArgumentError extends Error {}

/**
 * Python's name for a value's type, for error messages: `str`, `int`, `float`, `bool`, `list`,
 * `dict`, `NoneType`.
 *
 * @example
 * pyTypeName(1.5); // 'float'
 */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (Array.isArray(value)) return 'list';
  if (isPlainObject(value)) return 'dict';
  return typeName(value);
}

/** Python's text of a number: integral values as ints, others as float `repr()`. */
export function numberText(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (Number.isSafeInteger(value)) return String(value === 0 ? 0 : value);
  return (value < 0 ? '-' : '') + floatRepr(value);
}

const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

function stringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      const [prefix, width] = code < 0x100 ? ['x', 2] : code < 0x10000 ? ['u', 4] : ['U', 8];
      out += `\\${prefix}${code.toString(16).padStart(width, '0')}`;
    } else out += ch;
    if (out.length > MAX_STRING_LENGTH) break;
  }
  return out + quote;
}

function tooLong(): never {
  throw new FunctionArgumentError(`str(): result longer than ${MAX_STRING_LENGTH} characters`);
}

function render(value: unknown, top: boolean, depth: number): string {
  if (depth > 100) throw new FunctionArgumentError('value nested too deeply to print');
  if (typeof value === 'string') return top ? value : stringRepr(value);
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return numberText(value);
  let out: string;
  if (Array.isArray(value)) {
    const items: string[] = [];
    let size = 0;
    for (const item of value as unknown[]) {
      const text = render(item, false, depth + 1);
      size += text.length + 2;
      if (size > MAX_STRING_LENGTH) tooLong();
      items.push(text);
    }
    out = `[${items.join(', ')}]`;
  } else if (isPlainObject(value)) {
    const items: string[] = [];
    let size = 0;
    for (const key of Object.keys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor !== undefined && !('value' in descriptor)) {
        throw new FunctionArgumentError(`'${key}' is an accessor, not a data property`);
      }
      const text = `${stringRepr(key)}: ${render(descriptor?.value, false, depth + 1)}`;
      size += text.length + 2;
      if (size > MAX_STRING_LENGTH) tooLong();
      items.push(text);
    }
    out = `{${items.join(', ')}}`;
  } else {
    out = `<${typeName(value)}>`;
  }
  if (out.length > MAX_STRING_LENGTH) tooLong();
  return out;
}

/**
 * Python's `str()`: strings as they are, `True`/`False`/`None`, lists and dicts in Python's notation
 * (`[1, 'a']`, `{'k': None}`).
 *
 * @example
 * pyStr([1, 'a', null]); // "[1, 'a', None]"
 */
export function pyStr(value: unknown): string {
  return render(value, true, 0);
}

/**
 * Python's `repr()` (strings quoted and escaped).
 *
 * @example
 * pyRepr("it's"); // `"it's"`
 */
export function pyRepr(value: unknown): string {
  return render(value, false, 0);
}

const isNumeric = (v: unknown): v is number | boolean =>
  typeof v === 'number' || typeof v === 'boolean';

/** Compares two strings by code point, as Python does (JS compares UTF-16 units). */
function compareText(a: string, b: string): number {
  if (!/[\uD800-\uDFFF]/.test(a + b)) return a < b ? -1 : a > b ? 1 : 0;
  const [x, y] = [Array.from(a), Array.from(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * Python's ordering: numbers (booleans count as 0/1) with numbers, strings with strings (by code
 * point), lists element by element. Anything else throws, naming both types.
 *
 * @example
 * pyCompare([1, 'b'], [1, 'a'], '<'); // 1
 */
export function pyCompare(a: unknown, b: unknown, op: string, depth = 0): number {
  if (isNumeric(a) && isNumeric(b)) return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  if (Array.isArray(a) && Array.isArray(b) && depth < 100) {
    const [x, y] = [a as unknown[], b as unknown[]];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = pyCompare(x[i], y[i], op, depth + 1);
      if (d !== 0) return d;
    }
    return x.length - y.length;
  }
  throw new FunctionArgumentError(
    `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
  );
}

/**
 * The characters of a string as Python counts them (code points).
 *
 * @example
 * characters('a😀'); // ['a', '😀']
 */
export function characters(text: string): string[] {
  return /[\uD800-\uDFFF]/.test(text) ? Array.from(text) : text.split('');
}

/**
 * What `for x in value` sees in Python: list items, string characters, dict keys.
 *
 * @example
 * pyIterate({ a: 1 }, 'sorted()'); // ['a']
 */
export function pyIterate(value: unknown, name: string): unknown[] {
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value === 'string') return characters(value);
  if (isPlainObject(value)) return Object.keys(value);
  throw new FunctionArgumentError(`${name}: '${pyTypeName(value)}' object is not iterable`);
}

/**
 * Python's `seq[start:stop:step]` on a list or a string (by code point); null bounds are omitted.
 *
 * @example
 * pySlice('hello', null, null, -1); // 'olleh'
 */
export function pySlice(target: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  const bound = (v: unknown): number | null => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    if (typeof v === 'boolean') return Number(v);
    throw new FunctionArgumentError(`slice indices must be integers or None, got ${pyTypeName(v)}`);
  };
  const items: unknown[] | null =
    typeof target === 'string' ? characters(target) : Array.isArray(target) ? target : null;
  if (items === null) throw new FunctionArgumentError(`cannot slice ${pyTypeName(target)}`);
  const length = items.length;
  const by = bound(step) ?? 1;
  if (by === 0) throw new FunctionArgumentError('slice step cannot be zero');
  const [lower, upper] = by > 0 ? [0, length] : [-1, length - 1];
  const adjust = (v: number | null, fallback: number): number => {
    if (v === null) return fallback;
    const i = v < 0 ? v + length : v;
    return Math.min(Math.max(i, lower), upper);
  };
  const from = adjust(bound(start), by > 0 ? lower : upper);
  const to = adjust(bound(stop), by > 0 ? upper : lower);
  const out: unknown[] = [];
  for (let i = from; by > 0 ? i < to : i > to; i += by) out.push(items[i]);
  return typeof target === 'string' ? out.join('') : out;
}

/** Python's `str.isspace()` characters (what `strip()` and `split()` remove). */
export const PY_WHITESPACE =
  '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

/**
 * Repeats a string or list `times` times (`'-' * 3`), bounded; a negative count gives an empty one.
 *
 * @example
 * repeat('ab', 2); // 'abab'
 */
export function repeat(value: string | unknown[], times: number): string | unknown[] {
  const n = Math.max(0, times);
  const limit = typeof value === 'string' ? MAX_STRING_LENGTH : MAX_ARRAY_LENGTH;
  if (value.length * n > limit) {
    throw new FunctionArgumentError(`'*' gives a result longer than ${limit}`);
  }
  if (typeof value === 'string') return value.repeat(n);
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(...value);
  return out;
}
