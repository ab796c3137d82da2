/**
 * The sandboxed expression language of `${...}` (src/procedures/README.md lists the accepted forms;
 * docs/automations.md is the users' page).
 *
 * Parsing is our own (expression-parse.ts) and evaluation walks the checked tree. No `eval`,
 * `Function`, `vm` or dynamic import is ever applied to user text. Identifiers resolve only to own
 * properties of the context passed in: an unknown identifier is an error (INVALID_ARGUMENTS) so typos
 * surface instead of silently yielding nothing; a missing *property* (`a.missing`) is `undefined`,
 * and `?.` / `??` / `get()` / `d.get()` handle optional data. `context` is the whole variable
 * context (read-only) and `Config.get(key)` reads configuration through `options.config`.
 */
import { PipitError } from '../../core/errors.ts';
import { FunctionArgumentError, functionKeywords, lookupFunction } from './functions.ts';
import { callMethod, methodKeywords } from './methods.ts';
import type { Keywords } from './methods.ts';
import { EvalError, arithmetic, compareOnce, operand } from './operators.ts';
import { parseExpression, quoteExpression } from './parse.ts';
import type { ExprNode, Keyword } from './parse.ts';
import { characters, pyRepr, pySlice } from './python.ts';
import { FORBIDDEN_NAMES, defineOwn, isTruthy, readOwn, typeName } from '../values.ts';

export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH } from './parse.ts';
export { FUNCTION_NAMES } from './functions.ts';
export { METHOD_NAMES } from './methods.ts';

/** Variables visible to an expression: only its own properties are ever read. */
export type ExpressionContext = Readonly<Record<string, unknown>>;

/** What an evaluation may read besides the context. */
export interface EvaluateOptions {
  /**
   * Backs `Config.get(key)`: the configuration value at `key`, or `undefined` when there is none
   * (then `Config.get` gives its default, else None). Without it every `Config.get` gives None.
   */
  readonly config?: (key: string) => unknown;
}

/** An expression parsed and checked once, evaluated many times. */
export interface CompiledExpression {
  /** The text inside `${...}`. */
  readonly source: string;
  /** Evaluates against `context`; throws PipitError('INVALID_ARGUMENTS') on a failing value. */
  evaluate(context: ExpressionContext, options?: EvaluateOptions): unknown;
}

interface Scope {
  readonly context: ExpressionContext;
  readonly options: EvaluateOptions;
}

function lookupVariable(context: ExpressionContext, name: string): unknown {
  const read = readOwn(context, name);
  if (read.kind === 'found') return read.value;
  if (read.kind === 'refused') throw new EvalError(read.reason);
  const short = (text: string): string => (text.length > 40 ? `${text.slice(0, 37)}...` : text);
  const known = Object.keys(context).slice(0, 20).map(short).join(', ');
  throw new EvalError(`unknown variable '${short(name)}' (known: ${known || 'none'})`);
}

/** A read-only snapshot of the context, for `context` used as a value. */
function snapshot(context: ExpressionContext): Record<string, unknown> {
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(context)) {
    const read = readOwn(context, key);
    if (read.kind === 'found') defineOwn(copy, key, read.value);
  }
  return copy;
}

/** The value a member, slice, method or `in` works on; `context` itself is read in place. */
function target(node: ExprNode, scope: Scope): unknown {
  return node.type === 'context' ? scope.context : evaluate(node, scope);
}

function member(node: Extract<ExprNode, { type: 'member' }>, scope: Scope): unknown {
  const object = target(node.object, scope);
  const key = evaluate(node.property, scope);
  if (typeof key !== 'string' && !(typeof key === 'number' && Number.isInteger(key))) {
    throw new EvalError(`property key must be a string or an integer, got ${typeName(key)}`);
  }
  const name = String(key);
  if (object === null || object === undefined) {
    if (node.optional) return undefined;
    throw new EvalError(`cannot read '${name}' of ${typeName(object)} (use ?. for optional data)`);
  }
  if (typeof key === 'number' && (typeof object === 'string' || Array.isArray(object))) {
    const items = typeof object === 'string' ? characters(object) : (object as unknown[]);
    const index = key < 0 ? key + items.length : key; // Python: a[-1] is the last item
    if (index < 0 || index >= items.length) return undefined;
    if (typeof object === 'string') return items[index];
    const read = readOwn(object, String(index));
    if (read.kind === 'refused') throw new EvalError(read.reason);
    return read.kind === 'found' ? read.value : undefined;
  }
  const read = readOwn(object, name);
  if (read.kind === 'refused') throw new EvalError(read.reason);
  return read.kind === 'found' ? read.value : undefined;
}

function binary(node: Extract<ExprNode, { type: 'binary' }>, scope: Scope): unknown {
  const op = node.operator;
  const left = evaluate(node.left, scope);
  // Short-circuit operators return an operand, as in Python and JS.
  if (op === '&&' || op === 'and') return isTruthy(left) ? evaluate(node.right, scope) : left;
  if (op === '||' || op === 'or') return isTruthy(left) ? left : evaluate(node.right, scope);
  if (op === '??') return left === null || left === undefined ? evaluate(node.right, scope) : left;
  return arithmetic(op, left, evaluate(node.right, scope));
}

/** Python's chained comparison: `a < b < c` is `a < b and b < c`, evaluating b once. */
function compare(node: Extract<ExprNode, { type: 'compare' }>, scope: Scope): boolean {
  let left = target(node.operands[0]!, scope);
  for (let i = 0; i < node.operators.length; i++) {
    const right = target(node.operands[i + 1]!, scope);
    if (!compareOnce(node.operators[i]!, left, right)) return false;
    left = right;
  }
  return true;
}

/** Evaluates arguments, placing keyword arguments at their positions (or by name for format). */
function callArguments(
  label: string,
  positional: ExprNode[],
  keywords: Keyword[],
  accepted: Keywords | undefined,
  scope: Scope,
): { args: unknown[]; named: Map<string, unknown> } {
  const args = positional.map((arg) => evaluate(arg, scope));
  const named = new Map<string, unknown>();
  for (const { name, value } of keywords) {
    const at = accepted === 'any' ? undefined : accepted?.get(name);
    if (at === undefined) {
      named.set(name, evaluate(value, scope));
      continue;
    }
    if (at < positional.length) {
      throw new EvalError(`${label}() got multiple values for argument '${name}'`);
    }
    while (args.length <= at) args.push(undefined);
    args[at] = evaluate(value, scope);
  }
  return { args, named };
}

function configGet(node: Extract<ExprNode, { type: 'config' }>, scope: Scope): unknown {
  const key = evaluate(node.args[0]!, scope);
  if (typeof key !== 'string')
    throw new EvalError(`Config.get() key must be a string, got ${typeName(key)}`);
  const refused = key.split('.').find((part) => FORBIDDEN_NAMES.has(part));
  if (refused !== undefined) throw new EvalError(`Config.get(): '${refused}' is not accessible`);
  let value: unknown;
  try {
    value = scope.options.config?.(key);
  } catch (err) {
    if (err instanceof PipitError) throw err;
    throw new EvalError(
      `Config.get(${pyRepr(key)}) failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (value !== undefined) return value;
  return node.args[1] === undefined ? null : evaluate(node.args[1], scope);
}

function evaluate(node: ExprNode, scope: Scope): unknown {
  switch (node.type) {
    case 'literal':
      return node.value;
    case 'identifier':
      return lookupVariable(scope.context, node.name);
    case 'context':
      return snapshot(scope.context);
    case 'member':
      return member(node, scope);
    case 'slice': {
      const object = target(node.object, scope);
      const [start, stop, step] = node.parts.map((p) => (p === null ? null : evaluate(p, scope)));
      return pySlice(object, start, stop, step);
    }
    case 'call': {
      const fn = lookupFunction(node.name)!; // checked at load
      const accepted = functionKeywords(node.name);
      const { args } = callArguments(node.name, node.args, node.keywords, accepted, scope);
      return fn(...args);
    }
    case 'method': {
      const receiver = target(node.object, scope);
      if (node.optional && (receiver === null || receiver === undefined)) return undefined;
      const accepted = methodKeywords(node.name);
      const call = callArguments(node.name, node.args, node.keywords, accepted, scope);
      return callMethod(receiver, node.name, call.args, call.named);
    }
    case 'config':
      return configGet(node, scope);
    case 'unary': {
      const value = evaluate(node.argument, scope);
      if (node.operator === '!' || node.operator === 'not') return !isTruthy(value);
      const n = operand(node.operator, value);
      return node.operator === '-' ? 0 - n : n;
    }
    case 'binary':
      return binary(node, scope);
    case 'compare':
      return compare(node, scope);
    case 'conditional':
      return isTruthy(evaluate(node.test, scope))
        ? evaluate(node.consequent, scope)
        : evaluate(node.alternate, scope);
    case 'array':
      return node.elements.map((element) => evaluate(element, scope));
    case 'dict':
      return dictLiteral(node.entries, scope);
  }
}

// `{k: v}`: keys are strings (numbers become their text, as in JSON), defined as own data so that
// no key (`__proto__` included) reaches a prototype; forbidden names are refused as on reading.
function dictLiteral(entries: [ExprNode, ExprNode][], scope: Scope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [keyNode, valueNode] of entries) {
    const key = evaluate(keyNode, scope);
    if (typeof key !== 'string' && typeof key !== 'number')
      throw new EvalError(`dict keys must be strings or numbers, got ${typeName(key)}`);
    const text = String(key);
    if (FORBIDDEN_NAMES.has(text)) throw new EvalError(`'${text}' is not accessible`);
    defineOwn(out, text, evaluate(valueNode, scope));
  }
  return out;
}

/**
 * Parses and checks an expression once (PipitError('BAD_REQUEST') on bad syntax, forbidden
 * constructs or exceeded limits) and returns it ready to evaluate.
 *
 * @example
 * const e = compileExpression('volume > 50 and device == "kitchen"');
 * e.evaluate({ volume: 60, device: 'kitchen' }); // true
 * compileExpression("Config.get('lights')").evaluate({}, { config: (k) => cfg[k] });
 */
export function compileExpression(source: string): CompiledExpression {
  const tree = parseExpression(source);
  return {
    source,
    evaluate(context: ExpressionContext, options: EvaluateOptions = {}): unknown {
      try {
        return evaluate(tree, { context, options });
      } catch (err) {
        if (err instanceof EvalError || err instanceof FunctionArgumentError) {
          throw new PipitError(
            'INVALID_ARGUMENTS',
            `expression ${quoteExpression(source)}: ${err.message}`,
          );
        }
        if (err instanceof RangeError) {
          throw new PipitError(
            'INVALID_ARGUMENTS',
            `expression ${quoteExpression(source)}: too large`,
          );
        }
        throw err;
      }
    },
  };
}

/**
 * Compiles and evaluates in one go.
 *
 * @example
 * evaluateExpression('len(items) * 2', { items: [1, 2] }); // 4
 */
export function evaluateExpression(
  source: string,
  context: ExpressionContext,
  options?: EvaluateOptions,
): unknown {
  return compileExpression(source).evaluate(context, options);
}
