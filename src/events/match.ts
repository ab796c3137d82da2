/**
 * Event-hook conditions: `{type: CustomEvent, subtype: door_open, args: {level: {$gte: 3}}}`.
 *
 * A condition is compiled (validated) once at config load into a predicate, so a bad hook is refused
 * at start and matching an event never throws. Semantics:
 * - `type` names the event kind: full name, short class name, dotted suffix, or the `svc.` /
 *   `platypush.` prefixed spellings (see {@link kindMatches}).
 * - any other key is an event field (own properties only); a plain value must be deeply equal, a
 *   nested object is a subset match (recursively), an object whose keys all start with `$` is a set of
 *   operators, all of which must hold.
 * - operators: `$eq $ne $gt $gte $lt $lte $in $nin $regex` (+ `$options`: flags from `imsu`),
 *   `$exists`. A missing field only satisfies `$ne`, `$nin` and `$exists: false`.
 * - a string with `${name}` placeholders, and any string for a `phrase` field, is a Platypush phrase
 *   pattern (see phrase.ts): matched word by word, case-insensitively, anywhere in the field; it
 *   binds the names for the hook's steps.
 */
import { PipitError } from '../core/errors.ts';
import { deepEqual, isPlainObject, readOwn, typeName } from '../procedures/values.ts';
import { compilePhrase, isPhrase } from './phrase.ts';

/** An event as hooks see it: `{type: '<fully qualified kind>', ...fields}`. */
export type EventLike = Readonly<Record<string, unknown>>;

/** A compiled condition: true when the event matches. Never throws. */
export type EventPredicate = (event: EventLike) => boolean;

/** Longest accepted `$regex` pattern (characters). */
export const MAX_REGEX_PATTERN = 256;

/** Longest field value a `$regex` is tried on; longer strings do not match. */
export const MAX_REGEX_INPUT = 10_000;

const PREFIX = 'pipit.';
const ALIASES = ['svc.', 'platypush.'];
const OPERATORS = new Set([
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$regex',
  '$options',
  '$exists',
]);
const MAX_DEPTH = 32;

function canonicalKind(kind: string): string {
  for (const alias of ALIASES) if (kind.startsWith(alias)) return PREFIX + kind.slice(alias.length);
  return kind;
}

/**
 * True when `pattern` names the kind `fqKind`: the full name, the short class name, any dotted
 * suffix, or the full name with the generic `svc.` (or Platypush's `platypush.`) prefix.
 *
 * @example
 * kindMatches('CustomEvent', 'pipit.message.event.custom.CustomEvent'); // true
 * kindMatches('svc.message.event.custom.CustomEvent', 'pipit.message.event.custom.CustomEvent'); // true
 * kindMatches('Event', 'pipit.message.event.custom.CustomEvent'); // false
 */
export function kindMatches(pattern: string, fqKind: string): boolean {
  if (typeof pattern !== 'string' || typeof fqKind !== 'string' || pattern === '') return false;
  const want = canonicalKind(pattern);
  const have = canonicalKind(fqKind);
  return want === have || have.endsWith(`.${want}`);
}

function invalid(path: string, what: string): never {
  throw new PipitError('CONFIG_INVALID', `condition${path ? ` ${path}` : ''}: ${what}`);
}

/** Reads a field the way expressions do: own data properties only, never inherited ones. */
function field(target: unknown, key: string): { present: boolean; value: unknown } {
  if (!isPlainObject(target) && !Array.isArray(target)) return { present: false, value: undefined };
  const read = readOwn(target, key);
  return read.kind === 'found'
    ? { present: true, value: read.value }
    : { present: false, value: undefined };
}

/**
 * Refuses regexes whose backtracking can explode: a repeated group that contains a quantifier or an
 * alternation, at any nesting (`(a+)+`, `((a*))*`, `(a|aa)*`), and back-references. Conservative on
 * purpose: `[ab]*` replaces `(a|b)*`.
 */
function checkRegex(pattern: string, path: string): void {
  if (pattern.length > MAX_REGEX_PATTERN) {
    invalid(path, `$regex longer than ${MAX_REGEX_PATTERN} characters`);
  }
  if (/\\[1-9]|\\k</.test(pattern)) invalid(path, '$regex back-references are not allowed');
  const isQuantifier = (i: number): boolean =>
    pattern[i] === '*' ||
    pattern[i] === '+' ||
    (pattern[i] === '{' && /^\{\d+,?\d*\}/.test(pattern.slice(i)));
  // Per open group: does it contain something that can match in several ways?
  const stack: boolean[] = [];
  let risky = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (ch === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
    } else if (ch === '(') stack.push(false);
    else if (ch === '|' && stack.length > 0) stack[stack.length - 1] = true;
    else if ((isQuantifier(i) || (ch === '?' && pattern[i - 1] !== '(')) && stack.length > 0) {
      stack[stack.length - 1] = true;
    } else if (ch === ')') {
      const inner = stack.pop() ?? false;
      if (inner && isQuantifier(i + 1)) risky = true;
      if (stack.length > 0 && (inner || isQuantifier(i + 1))) stack[stack.length - 1] = true;
    }
  }
  if (risky)
    invalid(
      path,
      '$regex repeats a group that itself repeats or alternates (catastrophic backtracking)',
    );
}

function compare(a: unknown, b: unknown, op: string): boolean {
  const same =
    (typeof a === 'number' && typeof b === 'number') ||
    (typeof a === 'string' && typeof b === 'string');
  if (!same) return false;
  const [x, y] = [a, b];
  if (op === '$gt') return x > y;
  if (op === '$gte') return x >= y;
  if (op === '$lt') return x < y;
  return x <= y;
}

type ValueTest = (present: boolean, value: unknown) => boolean;

function compileOperators(spec: Record<string, unknown>, path: string): ValueTest {
  const tests: ValueTest[] = [];
  const keys = Object.keys(spec);
  if (keys.includes('$options') && !keys.includes('$regex'))
    invalid(path, '$options without $regex');
  for (const op of keys) {
    const arg = spec[op];
    const at = `${path}.${op}`;
    if (!OPERATORS.has(op)) {
      invalid(at, `unknown operator (expected one of ${[...OPERATORS].join(', ')})`);
    }
    switch (op) {
      case '$eq':
        tests.push((present, value) => present && deepEqual(value, arg));
        break;
      case '$ne':
        tests.push((present, value) => !present || !deepEqual(value, arg));
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (typeof arg !== 'number' && typeof arg !== 'string') {
          invalid(at, `expects a number or a string, got ${typeName(arg)}`);
        }
        tests.push((present, value) => present && compare(value, arg, op));
        break;
      case '$in':
      case '$nin': {
        if (!Array.isArray(arg)) invalid(at, `expects a list, got ${typeName(arg)}`);
        const list = arg as unknown[];
        const within = (value: unknown): boolean => list.some((item) => deepEqual(value, item));
        tests.push(
          op === '$in'
            ? (present, value) => present && within(value)
            : (present, value) => !present || !within(value),
        );
        break;
      }
      case '$regex': {
        if (typeof arg !== 'string') invalid(at, `expects a string, got ${typeName(arg)}`);
        const flags = spec.$options ?? '';
        if (typeof flags !== 'string' || !/^[imsu]*$/.test(flags)) {
          invalid(`${path}.$options`, 'expects flags from "imsu"');
        }
        checkRegex(arg, at);
        let regex: RegExp;
        try {
          regex = new RegExp(arg, flags);
        } catch (err) {
          invalid(
            at,
            `invalid regular expression: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        tests.push(
          (present, value) =>
            present &&
            typeof value === 'string' &&
            value.length <= MAX_REGEX_INPUT &&
            regex.test(value),
        );
        break;
      }
      case '$exists':
        if (typeof arg !== 'boolean') invalid(at, `expects true or false, got ${typeName(arg)}`);
        tests.push((present) => present === arg);
        break;
    }
  }
  return (present, value) => tests.every((test) => test(present, value));
}

function compileValue(spec: unknown, path: string, depth: number): ValueTest {
  if (depth > MAX_DEPTH) invalid(path, `nested deeper than ${MAX_DEPTH} levels`);
  if (isPlainObject(spec)) {
    const keys = Object.keys(spec);
    const ops = keys.filter((k) => k.startsWith('$'));
    if (ops.length > 0 && ops.length !== keys.length) {
      invalid(path, 'mixes $operators with field names; nest the fields or the operators');
    }
    if (ops.length > 0) return compileOperators(spec, path);
    const fields = keys.map(
      (key) => [key, compileValue(spec[key], `${path}.${key}`, depth + 1)] as const,
    );
    return (present, value) =>
      present &&
      isPlainObject(value) &&
      fields.every(([key, test]) => {
        const f = field(value, key);
        return test(f.present, f.value);
      });
  }
  // Platypush's speech events match their `phrase` as a phrase even without placeholders
  // ("play (the)? music").
  if (isPhrase(spec) || (path === 'phrase' && typeof spec === 'string')) {
    const phrase = compilePhrase(spec, path);
    return (present, value) => present && phrase.test(value);
  }
  return (present, value) => present && deepEqual(value, spec);
}

/**
 * Validates a hook condition once and returns the predicate to run on each event. Throws
 * PipitError('CONFIG_INVALID') naming the key at fault.
 *
 * @example
 * const match = compileCondition({ type: 'CustomEvent', subtype: 'door_open', 'args': { level: { $gte: 3 } } });
 * match({ type: 'pipit.message.event.custom.CustomEvent', subtype: 'door_open', args: { level: 4 } }); // true
 */
export function compileCondition(condition: unknown): EventPredicate {
  if (condition === null || condition === undefined) return () => true;
  if (!isPlainObject(condition))
    invalid('', `expected an object of event fields, got ${typeName(condition)}`);
  const keys = Object.keys(condition);
  const kind = condition.type;
  if (keys.includes('type') && (typeof kind !== 'string' || kind.trim() === '')) {
    invalid(
      'type',
      `expected an event kind name such as "CustomEvent", got ${JSON.stringify(kind)}`,
    );
  }
  const fields = keys
    .filter((key) => key !== 'type')
    .map((key) => {
      if (key.startsWith('$'))
        invalid(key, 'operators apply to a field, e.g. {subtype: {$in: [a, b]}}');
      return [key, compileValue(condition[key], key, 1)] as const;
    });
  return (event) => {
    if (!isPlainObject(event)) return false;
    if (typeof kind === 'string') {
      const type = field(event, 'type');
      if (typeof type.value !== 'string' || !kindMatches(kind.trim(), type.value)) return false;
    }
    return fields.every(([key, test]) => {
      const f = field(event, key);
      return test(f.present, f.value);
    });
  };
}

/**
 * One-off match (compiles the condition each time; hooks should keep {@link compileCondition}'s
 * predicate).
 *
 * @example
 * matchCondition({ type: 'WebhookEvent', hook: 'door' }, { type: 'pipit.message.event.http.hook.WebhookEvent', hook: 'door' }); // true
 */
export function matchCondition(condition: unknown, event: EventLike): boolean {
  return compileCondition(condition)(event);
}
