import { PipitError } from './errors.ts';
import type { ErrorCode } from './errors.ts';

/**
 * How deeply JSON may nest wherever it enters Pipit: HTTP bodies, WebSocket frames, web hook bodies,
 * and values stored (variables) or published (events). Real messages nest a handful of levels;
 * thousands of levels fit in a small body and overflow the stack of any recursive walker
 * (serialisers, validators, the expression evaluator) further in.
 */
export const MAX_JSON_DEPTH = 128;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The refusal for JSON nested deeper than {@link MAX_JSON_DEPTH}: BAD_REQUEST naming the limit.
 *
 * @example
 * throw tooDeep('the request body');
 */
export function tooDeep(what: string): PipitError {
  return new PipitError(
    'BAD_REQUEST',
    `${what} nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays: flatten it`,
    { details: { maxDepth: MAX_JSON_DEPTH } },
  );
}

/**
 * True when JSON text nests deeper than `max` (brackets inside strings do not count). A scan of the
 * text, so it is checked before anything is built from it; it does not validate the JSON.
 *
 * @example
 * jsonTextTooDeep('[[[1]]]', 2); // true
 */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  // Short texts cannot nest deeper than their length: most messages skip the scan.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * Parses JSON text, refusing text nested deeper than {@link MAX_JSON_DEPTH} (BAD_REQUEST naming the
 * limit) and malformed JSON (BAD_REQUEST with the parser's message).
 *
 * @example
 * parseJsonLimited('{"a": 1}', 'the frame'); // { a: 1 }
 */
export function parseJsonLimited(text: string, what: string): unknown {
  if (jsonTextTooDeep(text)) throw tooDeep(what);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new PipitError('BAD_REQUEST', `malformed JSON in ${what}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/**
 * Why a value cannot be JSON within the limits, or undefined when it can: too deep, circular, or
 * holding something JSON has no form for (a BigInt). Iterative, so a value of any depth is judged
 * without overflowing the stack.
 *
 * @example
 * jsonValueProblem({ n: 1n }); // 'it holds a BigInt (at "n"), which JSON cannot carry: ...'
 */
export function jsonValueProblem(value: unknown, max = MAX_JSON_DEPTH): string | undefined {
  // A depth-first walk with exit markers: `open` holds the objects on the current path, so an
  // object met again while it is open is a cycle, and one shared by two branches is not.
  const stack: Array<{ value: unknown; depth: number; path: string } | { exit: object }> = [
    { value, depth: 0, path: '' },
  ];
  const open = new Set<object>();
  while (stack.length) {
    const item = stack.pop()!;
    if ('exit' in item) {
      open.delete(item.exit);
      continue;
    }
    const v = item.value;
    const at = item.path ? ` (at "${item.path}")` : '';
    if (typeof v === 'bigint')
      return `it holds a BigInt${at}, which JSON cannot carry: convert it to a number or a string`;
    if (typeof v !== 'object' || v === null) continue;
    if (open.has(v)) return `it is circular${at}: it contains itself`;
    if (item.depth >= max) return `it nests deeper than ${max} levels of objects and arrays${at}`;
    // Date, Buffer and the like say themselves how they become JSON.
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') continue;
    open.add(v);
    stack.push({ exit: v });
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      stack.push({
        value: (v as Record<string, unknown>)[key],
        depth: item.depth + 1,
        path: item.path ? `${item.path}.${key}` : key,
      });
    }
  }
  return undefined;
}

/**
 * Serialises a value to JSON or throws, naming `what` and why it cannot be JSON (circular, a BigInt,
 * nested past {@link MAX_JSON_DEPTH}); `code` is the error's code (a caller's bad input is
 * BAD_REQUEST, an action's unsendable output is ACTION_FAILED).
 *
 * @example
 * toJsonLimited({ a: 1 }, 'the value of variable "x"', 'ACTION_FAILED'); // '{"a":1}'
 */
export function toJsonLimited(value: unknown, what: string, code: ErrorCode): string {
  // One serialisation in the common case (every published event, every stored variable); the
  // value is walked only to explain a failure.
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch (err) {
    // Circular, a BigInt, too deep for the stack, or a toJSON()/getter that throws.
    const problem = jsonValueProblem(value) ?? (err as Error).message;
    throw new PipitError(code, `${what} cannot be stored or sent as JSON: ${problem}`, {
      cause: err,
    });
  }
  if (jsonTextTooDeep(text)) {
    const problem =
      jsonValueProblem(value) ??
      `it nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`;
    throw new PipitError(code, `${what} cannot be stored or sent as JSON: ${problem}`);
  }
  return text;
}
