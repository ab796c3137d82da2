/**
 * The whitelist of pure functions an expression may call by name: Python's builtins (see
 * expression-builtins.ts) and the JS-style helpers that were here first (`lower(s)`, `get(o, k, d)`,
 * `join(list, sep)`, ...). Each checks its arguments and bounds its result; none can reach a
 * prototype, a global or I/O (`now` reads the clock only).
 */
import { BUILTIN_KEYWORDS, pythonBuiltins } from './builtins.ts';
import { FunctionArgumentError } from './python.ts';
import type { Keywords } from './methods.ts';
import {
  MAX_ARRAY_LENGTH,
  MAX_STRING_LENGTH,
  deepEqual,
  isPlainObject,
  readOwn,
  toText,
  typeName,
} from '../values.ts';

export { FunctionArgumentError } from './python.ts';

type Fn = (...args: unknown[]) => unknown;

function arity(name: string, args: unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw new FunctionArgumentError(`${name}() takes ${expected} argument(s), got ${args.length}`);
  }
}

function need<T>(name: string, value: unknown, ok: (v: unknown) => v is T, what: string): T {
  if (!ok(value))
    throw new FunctionArgumentError(`${name}() expects ${what}, got ${typeName(value)}`);
  return value;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && !Number.isNaN(v);
const isArray = (v: unknown): v is unknown[] => Array.isArray(v);

/**
 * Checks a produced string against the size limit.
 *
 * @example
 * boundedString('join', text); // text, or throws FunctionArgumentError when too long
 */
export function boundedString(name: string, value: string): string {
  if (value.length > MAX_STRING_LENGTH) {
    throw new FunctionArgumentError(`${name}: result longer than ${MAX_STRING_LENGTH} characters`);
  }
  return value;
}

function entries(name: string, value: unknown): [string, unknown][] {
  const obj = need(name, value, isPlainObject, 'an object');
  return Object.keys(obj).map((k) => {
    const descriptor = Object.getOwnPropertyDescriptor(obj, k);
    if (descriptor !== undefined && !('value' in descriptor)) {
      throw new FunctionArgumentError(`${name}(): '${k}' is an accessor, not a data property`);
    }
    return [k, descriptor?.value];
  });
}

function range(...args: unknown[]): number[] {
  arity('range', args, 1, 3);
  const nums = args.map((a) =>
    need('range', a, Number.isInteger as (v: unknown) => v is number, 'integers'),
  );
  const [start, stop, step] =
    nums.length === 1 ? [0, nums[0]!, 1] : [nums[0]!, nums[1]!, nums[2] ?? 1];
  if (step === 0) throw new FunctionArgumentError('range() step must not be 0');
  const count = Math.max(0, Math.ceil((stop - start) / step));
  if (count > MAX_ARRAY_LENGTH)
    throw new FunctionArgumentError(`range() longer than ${MAX_ARRAY_LENGTH}`);
  return Array.from({ length: count }, (_, i) => start + i * step);
}

const functions: Record<string, Fn> = {
  ...pythonBuiltins,
  lower: (...args) => (
    arity('lower', args, 1),
    need('lower', args[0], isString, 'a string').toLowerCase()
  ),
  upper: (...args) => (
    arity('upper', args, 1),
    need('upper', args[0], isString, 'a string').toUpperCase()
  ),
  trim: (...args) => (arity('trim', args, 1), need('trim', args[0], isString, 'a string').trim()),
  floor: (...args) => (
    arity('floor', args, 1),
    Math.floor(need('floor', args[0], isNumber, 'a number'))
  ),
  ceil: (...args) => (
    arity('ceil', args, 1),
    Math.ceil(need('ceil', args[0], isNumber, 'a number'))
  ),
  sum(...args) {
    arity('sum', args, 1);
    return need('sum', args[0], isArray, 'an array')
      .map((v) => need('sum', v, isNumber, 'an array of numbers'))
      .reduce((a, b) => a + b, 0);
  },
  keys: (...args) => (arity('keys', args, 1), entries('keys', args[0]).map(([k]) => k)),
  values: (...args) => (arity('values', args, 1), entries('values', args[0]).map(([, v]) => v)),
  json: (...args) => (
    arity('json', args, 1),
    boundedString('json', JSON.stringify(args[0]) ?? 'null')
  ),
  from_json(...args) {
    arity('from_json', args, 1);
    const text = need('from_json', args[0], isString, 'a string');
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new FunctionArgumentError(
        `from_json(): ${err instanceof Error ? err.message : 'invalid JSON'}`,
      );
    }
  },
  now: (...args) => (arity('now', args, 0), Date.now() / 1000),
  range,
  join(...args) {
    arity('join', args, 1, 2);
    const list = need('join', args[0], isArray, 'an array');
    const sep = args.length > 1 ? need('join', args[1], isString, 'a string separator') : ',';
    return boundedString('join', list.map(toText).join(sep));
  },
  split(...args) {
    arity('split', args, 1, 2);
    const s = need('split', args[0], isString, 'a string');
    const sep = args.length > 1 ? need('split', args[1], isString, 'a string separator') : ',';
    return s.split(sep, MAX_ARRAY_LENGTH);
  },
  replace(...args) {
    arity('replace', args, 3);
    const [s, from, to] = args.map((a) => need('replace', a, isString, 'strings'));
    if (from === '') throw new FunctionArgumentError('replace() search text must not be empty');
    // Bound before building: each replacement may grow the text.
    const hits = s!.split(from!).length - 1;
    if (s!.length + hits * (to!.length - from!.length) > MAX_STRING_LENGTH) {
      throw new FunctionArgumentError(
        `replace: result longer than ${MAX_STRING_LENGTH} characters`,
      );
    }
    return s!.replaceAll(from!, to!);
  },
  startswith: (...args) => (
    arity('startswith', args, 2),
    need('startswith', args[0], isString, 'a string').startsWith(
      need('startswith', args[1], isString, 'a string prefix'),
    )
  ),
  endswith: (...args) => (
    arity('endswith', args, 2),
    need('endswith', args[0], isString, 'a string').endsWith(
      need('endswith', args[1], isString, 'a string suffix'),
    )
  ),
  contains(...args) {
    arity('contains', args, 2);
    return containsValue(args[0], args[1]);
  },
  get(...args) {
    arity('get', args, 2, 3);
    const key = args[1];
    if (typeof key !== 'string' && typeof key !== 'number') {
      throw new FunctionArgumentError(`get() key must be a string or number, got ${typeName(key)}`);
    }
    const read = args[0] === null || args[0] === undefined ? null : readOwn(args[0], String(key));
    return read?.kind === 'found' && read.value !== undefined ? read.value : args[2];
  },
  slice(...args) {
    arity('slice', args, 2, 3);
    const v = args[0];
    const start = need(
      'slice',
      args[1],
      Number.isInteger as (v: unknown) => v is number,
      'an integer start',
    );
    const end =
      args.length > 2
        ? need('slice', args[2], Number.isInteger as (v: unknown) => v is number, 'an integer end')
        : undefined;
    if (typeof v === 'string' || Array.isArray(v)) return v.slice(start, end);
    throw new FunctionArgumentError(`slice() expects a string or array, got ${typeName(v)}`);
  },
  type: (...args) => (arity('type', args, 1), typeName(args[0])),
};

/**
 * Python-style membership used by `in` and `contains()`: an element of an array (deep equality), an
 * own key of an object, or a substring of a string.
 *
 * @example
 * containsValue([1, 2], 2); // true
 * containsValue('hello', 'ell'); // true
 */
export function containsValue(container: unknown, item: unknown): boolean {
  if (Array.isArray(container)) return container.some((x) => deepEqual(x, item));
  if (typeof container === 'string') {
    if (typeof item !== 'string')
      throw new FunctionArgumentError(`'in' on a string needs a string, got ${typeName(item)}`);
    return container.includes(item);
  }
  if (isPlainObject(container)) return typeof item === 'string' && Object.hasOwn(container, item);
  throw new FunctionArgumentError(
    `'in' needs an array, object or string on its right, got ${typeName(container)}`,
  );
}

const registry: ReadonlyMap<string, Fn> = new Map(Object.entries(functions));

/** Names of the callable functions, for error messages and documentation. */
export const FUNCTION_NAMES: readonly string[] = [...registry.keys()].sort();

/**
 * Looks a whitelisted function up by name; a Map, so `constructor` or `toString` never match.
 *
 * @example
 * lookupFunction('len')?.([1, 2]); // 2
 */
export function lookupFunction(name: string): Fn | undefined {
  return registry.get(name);
}

const NO_KEYWORDS: Keywords = new Map();

/**
 * The keyword arguments a function takes (name → position), or undefined for an unknown function.
 *
 * @example
 * functionKeywords('sorted'); // Map { 'reverse' => 1 }
 */
export function functionKeywords(name: string): Keywords | undefined {
  if (!registry.has(name)) return undefined;
  return BUILTIN_KEYWORDS.get(name) ?? NO_KEYWORDS;
}
