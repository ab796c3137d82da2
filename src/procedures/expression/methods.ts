/**
 * The whitelist of methods an expression may call on plain data, with Python's behaviour:
 * `str.upper/lower/strip/lstrip/rstrip/split/replace/startswith/endswith/format/join/find/index/
 * count`, `dict.get/keys/values/items` and `list.index/count`. They are looked up in Maps by the
 * receiver's type, so no name can reach a JS method, a prototype or a function value; none mutates
 * its receiver. Dict views (`keys()`, `items()`) come back as lists (`items()`: `[key, value]` pairs).
 */
import { formatTemplate } from './format.ts';
import {
  FunctionArgumentError,
  PY_WHITESPACE,
  characters,
  pyIterate,
  pyRepr,
  pyTypeName,
} from './python.ts';
import { MAX_ARRAY_LENGTH, MAX_STRING_LENGTH, deepEqual } from '../values.ts';

/** Keyword arguments a function or method accepts (name → position), or `any` (format). */
export type Keywords = ReadonlyMap<string, number> | 'any';

type Method = (receiver: never, args: unknown[], named: ReadonlyMap<string, unknown>) => unknown;

function arity(name: string, args: unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw new FunctionArgumentError(`${name}() takes ${expected} argument(s), got ${args.length}`);
  }
}

function text(name: string, value: unknown, what = 'str'): string {
  if (typeof value !== 'string') {
    throw new FunctionArgumentError(`${name}() argument must be ${what}, not ${pyTypeName(value)}`);
  }
  return value;
}

function count(name: string, value: unknown): number {
  if (value === undefined || value === null) return -1;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw new FunctionArgumentError(`${name}() count must be an integer, not ${pyTypeName(value)}`);
}

function bounded(name: string, value: string): string {
  if (value.length > MAX_STRING_LENGTH) {
    throw new FunctionArgumentError(
      `${name}(): result longer than ${MAX_STRING_LENGTH} characters`,
    );
  }
  return value;
}

function strip(side: 'both' | 'left' | 'right'): Method {
  const name = side === 'both' ? 'strip' : side === 'left' ? 'lstrip' : 'rstrip';
  return (s: string, args) => {
    arity(name, args, 0, 1);
    const chars = args[0] === undefined || args[0] === null ? PY_WHITESPACE : text(name, args[0]);
    const set = new Set(characters(chars));
    const cs = characters(s);
    let [from, to] = [0, cs.length];
    if (side !== 'right') while (from < to && set.has(cs[from]!)) from++;
    if (side !== 'left') while (to > from && set.has(cs[to - 1]!)) to--;
    return cs.slice(from, to).join('');
  };
}

function split(s: string, args: unknown[]): string[] {
  arity('split', args, 0, 2);
  const limit = count('split', args[1]);
  const sep = args[0] === undefined || args[0] === null ? null : text('split', args[0]);
  const out: string[] = [];
  const push = (part: string): void => {
    if (out.length >= MAX_ARRAY_LENGTH) {
      throw new FunctionArgumentError(`split(): more than ${MAX_ARRAY_LENGTH} parts`);
    }
    out.push(part);
  };
  if (sep === '') throw new FunctionArgumentError('split(): empty separator');
  if (sep !== null) {
    let from = 0;
    for (let at = s.indexOf(sep); at >= 0 && out.length !== limit; at = s.indexOf(sep, from)) {
      push(s.slice(from, at));
      from = at + sep.length;
    }
    push(s.slice(from));
    return out;
  }
  const cs = characters(s);
  const space = new Set(characters(PY_WHITESPACE));
  let i = 0;
  for (;;) {
    while (i < cs.length && space.has(cs[i]!)) i++;
    if (i >= cs.length) return out;
    if (out.length === limit) return (push(cs.slice(i).join('')), out);
    const start = i;
    while (i < cs.length && !space.has(cs[i]!)) i++;
    push(cs.slice(start, i).join(''));
  }
}

function replace(s: string, args: unknown[]): string {
  arity('replace', args, 2, 3);
  const [from, to] = [text('replace', args[0]), text('replace', args[1])];
  const limit = count('replace', args[2]);
  const parts = from === '' ? ['', ...characters(s), ''] : s.split(from);
  const joints = parts.length - 1;
  const used = limit < 0 ? joints : Math.min(limit, joints);
  if (s.length + used * (to.length - from.length) > MAX_STRING_LENGTH) {
    throw new FunctionArgumentError(
      `replace(): result longer than ${MAX_STRING_LENGTH} characters`,
    );
  }
  if (from === '') return parts.slice(0, used + 1).join(to) + parts.slice(used + 1).join('');
  return (
    parts.slice(0, used + 1).join(to) +
    (used < joints ? from : '') +
    parts.slice(used + 1).join(from)
  );
}

function affix(name: 'startswith' | 'endswith'): Method {
  return (s: string, args) => {
    arity(name, args, 1);
    const what = 'str or a tuple of str';
    const options = Array.isArray(args[0]) ? (args[0] as unknown[]) : [args[0]];
    return options.some((o) => {
      const t = text(name, o, what);
      return name === 'startswith' ? s.startsWith(t) : s.endsWith(t);
    });
  };
}

function position(name: 'find' | 'index'): Method {
  return (s: string, args) => {
    arity(name, args, 1);
    const at = s.indexOf(text(name, args[0]));
    if (at < 0 && name === 'index') throw new FunctionArgumentError('substring not found');
    return at < 0 ? -1 : characters(s.slice(0, at)).length;
  };
}

const stringMethods = new Map<string, Method>([
  ['upper', (s: string, args) => (arity('upper', args, 0), bounded('upper', s.toUpperCase()))],
  ['lower', (s: string, args) => (arity('lower', args, 0), bounded('lower', s.toLowerCase()))],
  ['strip', strip('both')],
  ['lstrip', strip('left')],
  ['rstrip', strip('right')],
  ['split', split],
  ['replace', replace],
  ['startswith', affix('startswith')],
  ['endswith', affix('endswith')],
  ['format', (s: string, args, named) => formatTemplate(s, args, named)],
  [
    'join',
    (s: string, args) => {
      arity('join', args, 1);
      const items = pyIterate(args[0], 'join()').map((item, i) => {
        if (typeof item === 'string') return item;
        throw new FunctionArgumentError(
          `sequence item ${i}: expected str instance, ${pyTypeName(item)} found`,
        );
      });
      const size = items.reduce((n, item) => n + item.length + s.length, 0) - s.length;
      if (size > MAX_STRING_LENGTH) {
        throw new FunctionArgumentError(
          `join(): result longer than ${MAX_STRING_LENGTH} characters`,
        );
      }
      return items.join(s);
    },
  ],
  ['find', position('find')],
  ['index', position('index')],
  [
    'count',
    (s: string, args) => {
      arity('count', args, 1);
      const sub = text('count', args[0]);
      return sub === '' ? characters(s).length + 1 : s.split(sub).length - 1;
    },
  ],
]);

/** An own data property's value; accessors are code and are refused. */
function ownValue(dict: Record<string, unknown>, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(dict, key);
  if (descriptor !== undefined && !('value' in descriptor)) {
    throw new FunctionArgumentError(`'${key}' is an accessor, not a data property`);
  }
  return descriptor?.value;
}

const dictMethods = new Map<string, Method>([
  [
    'get',
    (d: Record<string, unknown>, args) => {
      arity('get', args, 1, 2);
      const [key, fallback = null] = args;
      return typeof key === 'string' && Object.hasOwn(d, key) ? ownValue(d, key) : fallback;
    },
  ],
  ['keys', (d: Record<string, unknown>, args) => (arity('keys', args, 0), Object.keys(d))],
  [
    'values',
    (d: Record<string, unknown>, args) => (
      arity('values', args, 0),
      Object.keys(d).map((k) => ownValue(d, k))
    ),
  ],
  [
    'items',
    (d: Record<string, unknown>, args) => (
      arity('items', args, 0),
      Object.keys(d).map((k) => [k, ownValue(d, k)])
    ),
  ],
]);

const listMethods = new Map<string, Method>([
  [
    'index',
    (list: unknown[], args) => {
      arity('index', args, 1);
      const at = list.findIndex((item) => deepEqual(item, args[0]));
      if (at < 0) throw new FunctionArgumentError(`${pyRepr(args[0])} is not in list`);
      return at;
    },
  ],
  [
    'count',
    (list: unknown[], args) => (
      arity('count', args, 1),
      list.filter((item) => deepEqual(item, args[0])).length
    ),
  ],
]);

const tables: readonly [string, ReadonlyMap<string, Method>][] = [
  ['str', stringMethods],
  ['dict', dictMethods],
  ['list', listMethods],
];

/** Names of the callable methods, for error messages and documentation. */
export const METHOD_NAMES: readonly string[] = [
  ...new Set(tables.flatMap(([, table]) => [...table.keys()])),
];

const NO_KEYWORDS: Keywords = new Map();
const KEYWORDS: ReadonlyMap<string, Keywords> = new Map<string, Keywords>([
  [
    'split',
    new Map([
      ['sep', 0],
      ['maxsplit', 1],
    ]),
  ],
  ['format', 'any'],
]);

/**
 * The keyword arguments a method takes, or undefined when no data type has that method.
 *
 * @example
 * methodKeywords('split'); // Map { 'sep' => 0, 'maxsplit' => 1 }
 */
export function methodKeywords(name: string): Keywords | undefined {
  if (!METHOD_NAMES.includes(name)) return undefined;
  return KEYWORDS.get(name) ?? NO_KEYWORDS;
}

/**
 * Calls a whitelisted method on a string, dict or list.
 *
 * @example
 * callMethod('a,b', 'split', [','], new Map()); // ['a', 'b']
 */
export function callMethod(
  receiver: unknown,
  name: string,
  args: unknown[],
  named: ReadonlyMap<string, unknown>,
): unknown {
  const type = pyTypeName(receiver);
  const table = tables.find(([t]) => t === type)?.[1];
  const method = table?.get(name);
  if (method === undefined) {
    const known = table ? ` (${type} methods: ${[...table.keys()].join(', ')})` : '';
    throw new FunctionArgumentError(`'${type}' object has no method '${name}'${known}`);
  }
  return method(receiver as never, args, named);
}
