/**
 * Python's builtins with Python's semantics: `len str int float bool round abs min max sorted
 * list dict`.
 * `int('42')`, `int(3.9)` is 3, `round(2.5)` is 2 (ties to even, exactly), `str(True)` is 'True',
 * `str(None)` is 'None', `bool([])` is False, `sorted(d)` gives the keys, `min`/`max` take a list or
 * several arguments. Integral numbers stand for Python ints (JS has one number type).
 */
import { pyRound } from './decimal.ts';
import {
  FunctionArgumentError,
  PY_WHITESPACE,
  characters,
  pyCompare,
  pyIterate,
  pyRepr,
  pyStr,
  pyTypeName,
} from './python.ts';
import { FORBIDDEN_NAMES, defineOwn, isPlainObject, isTruthy, readOwn } from '../values.ts';

type Fn = (...args: unknown[]) => unknown;

function arity(name: string, args: unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw new FunctionArgumentError(`${name}() takes ${expected} argument(s), got ${args.length}`);
  }
}

const given = (v: unknown): boolean => v !== undefined && v !== null;

function numeric(name: string, value: unknown): number {
  if (typeof value === 'number' || typeof value === 'boolean') return Number(value);
  throw new FunctionArgumentError(`${name}() needs a number, not ${pyTypeName(value)}`);
}

function stripSpace(text: string): string {
  // Python's whitespace is all in the BMP, so UTF-16 units can be tested one by one.
  let [from, to] = [0, text.length];
  while (from < to && PY_WHITESPACE.includes(text[from]!)) from++;
  while (to > from && PY_WHITESPACE.includes(text[to - 1]!)) to--;
  return text.slice(from, to);
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

const PREFIX_RADIX: Record<string, number> = { x: 16, o: 8, b: 2 };

function parseInteger(text: string, base: number): number {
  const invalid = (): never => {
    throw new FunctionArgumentError(
      `invalid literal for int() with base ${base}: ${pyRepr(text.slice(0, 60))}`,
    );
  };
  const [, sign = '', body = ''] = /^([+-]?)(.*)$/s.exec(stripSpace(text)) ?? [];
  const prefix = /^0([xXoObB])/.exec(body)?.[1]?.toLowerCase();
  let radix = base === 0 ? 10 : base;
  let digits = body;
  if (prefix !== undefined && (base === 0 || PREFIX_RADIX[prefix] === base)) {
    radix = PREFIX_RADIX[prefix]!;
    digits = body.slice(2).replace(/^_/, '');
  }
  const digit = `[${DIGITS.slice(0, radix)}]`;
  if (!new RegExp(`^${digit}(?:_?${digit})*$`, 'i').test(digits)) invalid();
  const clean = digits.replaceAll('_', '');
  // Base 0 reads the text as a Python literal: no leading zeros on a non-zero decimal.
  if (base === 0 && prefix === undefined && /^0+[1-9]/.test(clean)) invalid();
  const value = parseInt(clean, radix);
  if (!Number.isFinite(value)) throw new FunctionArgumentError('int() result is too large');
  return sign === '-' && value !== 0 ? -value : value;
}

const FLOAT = /^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?$/;

function parseFloatText(text: string): number {
  const clean = stripSpace(text);
  if (/^[+-]?(inf|infinity|nan)$/i.test(clean)) {
    throw new FunctionArgumentError(`float(): ${pyRepr(clean)} is not a finite number`);
  }
  if (!FLOAT.test(clean)) {
    throw new FunctionArgumentError(
      `could not convert string to float: ${pyRepr(text.slice(0, 60))}`,
    );
  }
  const value = Number(clean.replaceAll('_', ''));
  if (!Number.isFinite(value)) throw new FunctionArgumentError('float(): number too large');
  return value;
}

function extreme(name: 'min' | 'max', args: unknown[]): unknown {
  if (args.length === 0)
    throw new FunctionArgumentError(`${name} expected at least 1 argument, got 0`);
  const items = args.length === 1 ? pyIterate(args[0], `${name}()`) : args;
  if (items.length === 0) throw new FunctionArgumentError(`${name}() arg is an empty sequence`);
  let best = items[0];
  for (const item of items.slice(1)) {
    const d = pyCompare(item, best, name === 'min' ? '<' : '>');
    if (name === 'min' ? d < 0 : d > 0) best = item;
  }
  return best;
}

/** The Python builtins by name. */
export const pythonBuiltins: Record<string, Fn> = {
  len(...args) {
    arity('len', args, 1);
    const v = args[0];
    if (typeof v === 'string') return characters(v).length;
    if (Array.isArray(v)) return v.length;
    if (isPlainObject(v)) return Object.keys(v).length;
    throw new FunctionArgumentError(`object of type '${pyTypeName(v)}' has no len()`);
  },
  str: (...args) => (arity('str', args, 0, 1), args.length === 0 ? '' : pyStr(args[0])),
  int(...args) {
    arity('int', args, 0, 2);
    const [value, base] = args;
    if (given(base)) {
      if (typeof base !== 'number' || !(base === 0 || (base >= 2 && base <= 36))) {
        throw new FunctionArgumentError('int() base must be 0 or an integer from 2 to 36');
      }
      if (typeof value !== 'string') {
        throw new FunctionArgumentError("int() can't convert non-string with explicit base");
      }
      return parseInteger(value, base);
    }
    if (args.length === 0) return 0;
    if (typeof value === 'string') return parseInteger(value, 10);
    if (typeof value === 'number' || typeof value === 'boolean') {
      const n = Math.trunc(Number(value));
      return n === 0 ? 0 : n;
    }
    throw new FunctionArgumentError(
      `int() argument must be a string or a number, not '${pyTypeName(value)}'`,
    );
  },
  float(...args) {
    arity('float', args, 0, 1);
    const value = args.length === 0 ? 0 : args[0];
    if (typeof value === 'string') return parseFloatText(value);
    if (typeof value === 'number' || typeof value === 'boolean') return Number(value);
    throw new FunctionArgumentError(
      `float() argument must be a string or a number, not '${pyTypeName(value)}'`,
    );
  },
  bool: (...args) => (arity('bool', args, 0, 1), isTruthy(args[0])),
  round(...args) {
    arity('round', args, 1, 2);
    const x = numeric('round', args[0]);
    if (!given(args[1])) return pyRound(x, 0);
    const digits = args[1];
    if (typeof digits !== 'number' || !Number.isInteger(digits)) {
      throw new FunctionArgumentError(
        `round() ndigits must be an integer, not ${pyTypeName(digits)}`,
      );
    }
    const rounded = pyRound(x, digits);
    if (!Number.isFinite(rounded)) {
      throw new FunctionArgumentError('round(): rounded value too large to represent');
    }
    return rounded;
  },
  abs: (...args) => (arity('abs', args, 1), Math.abs(numeric('abs', args[0])) || 0),
  min: (...args) => extreme('min', args),
  max: (...args) => extreme('max', args),
  sorted(...args) {
    arity('sorted', args, 1, 2);
    const items = [...pyIterate(args[0], 'sorted()')];
    const reverse = isTruthy(args[1]);
    return items.sort((a, b) => (reverse ? pyCompare(b, a, '<') : pyCompare(a, b, '<')));
  },
  list: (...args) => (
    arity('list', args, 0, 1),
    args.length ? [...pyIterate(args[0], 'list()')] : []
  ),
  dict(...args) {
    arity('dict', args, 0, 1);
    return args.length ? toDict(args[0]) : {};
  },
};

// dict(mapping) copies it; dict(pairs) reads [key, value] pairs, as Python does. Keys are defined
// as own data and forbidden names refused, as in a `{...}` literal.
function toDict(source: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (key: unknown, value: unknown) => {
    if (typeof key !== 'string' && typeof key !== 'number')
      throw new FunctionArgumentError(
        `dict() keys must be strings or numbers, not ${pyTypeName(key)}`,
      );
    if (FORBIDDEN_NAMES.has(String(key)))
      throw new FunctionArgumentError(`dict(): '${String(key)}' is not accessible`);
    defineOwn(out, String(key), value);
  };
  if (isPlainObject(source)) {
    for (const key of Object.keys(source))
      put(key, readOwn(source, key).kind === 'found' ? source[key] : undefined);
    return out;
  }
  if (!Array.isArray(source))
    throw new FunctionArgumentError(
      `dict() needs a dict or a list of [key, value] pairs, not ${pyTypeName(source)}`,
    );
  for (const [i, pair] of (source as unknown[]).entries()) {
    if (!Array.isArray(pair) || pair.length !== 2)
      throw new FunctionArgumentError(`dict(): element ${i} is not a [key, value] pair`);
    put(pair[0], pair[1]);
  }
  return out;
}

/** Keyword arguments of the builtins that take some (name → position). */
export const BUILTIN_KEYWORDS: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map([
  ['round', new Map([['ndigits', 1]])],
  ['sorted', new Map([['reverse', 1]])],
  ['int', new Map([['base', 1]])],
]);
