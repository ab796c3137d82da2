/**
 * The sandboxed expression language of `${...}` (see docs in DESIGN "Procedures and expressions").
 *
 * Parsing is jsep's; evaluation is ours and walks a whitelisted tree (see expression-parse.ts). No
 * `eval`, `Function`, `vm` or dynamic import is ever applied to user text. Identifiers resolve only to
 * own properties of the context passed in: an unknown identifier is an error (INVALID_ARGUMENTS) so
 * typos surface instead of silently yielding nothing; a missing *property* (`a.missing`) is
 * `undefined`, and `?.` / `??` / `get()` handle optional data.
 */
import { PipitError } from '../core/errors.ts';
import {
  FUNCTION_NAMES,
  FunctionArgumentError,
  boundedString,
  containsValue,
  lookupFunction,
} from './expression-functions.ts';
import { parseExpression, quoteExpression } from './expression-parse.ts';
import type { ExprNode } from './expression-parse.ts';
import { MAX_ARRAY_LENGTH, deepEqual, isTruthy, readOwn, toText, typeName } from './values.ts';

export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH } from './expression-parse.ts';
export { FUNCTION_NAMES } from './expression-functions.ts';

/** Variables visible to an expression: only its own properties are ever read. */
export type ExpressionContext = Readonly<Record<string, unknown>>;

/** An expression parsed and checked once, evaluated many times. */
export interface CompiledExpression {
  /** The text inside `${...}`. */
  readonly source: string;
  /** Evaluates against `context`; throws PipitError('INVALID_ARGUMENTS') on a failing value. */
  evaluate(context: ExpressionContext): unknown;
}

// Python literals (Platypush expressions were Python); they cannot be shadowed by the context.
const PYTHON_LITERALS: ReadonlyMap<string, boolean | null> = new Map([
  ['True', true],
  ['False', false],
  ['None', null],
]);

class EvalError extends Error {}

function lookupVariable(context: ExpressionContext, name: string): unknown {
  if (PYTHON_LITERALS.has(name)) return PYTHON_LITERALS.get(name);
  const read = readOwn(context, name);
  if (read.kind === 'found') return read.value;
  if (read.kind === 'refused') throw new EvalError(read.reason);
  const short = (text: string): string => (text.length > 40 ? `${text.slice(0, 37)}...` : text);
  const known = Object.keys(context).slice(0, 20).map(short).join(', ');
  const shown = short(name);
  throw new EvalError(`unknown variable '${shown}' (known: ${known || 'none'})`);
}

function member(node: Extract<ExprNode, { type: 'member' }>, context: ExpressionContext): unknown {
  const target = evaluate(node.object, context);
  const key = evaluate(node.property, context);
  if (typeof key !== 'string' && !(typeof key === 'number' && Number.isInteger(key))) {
    throw new EvalError(`property key must be a string or an integer, got ${typeName(key)}`);
  }
  const name = String(key);
  if (target === null || target === undefined) {
    if (node.optional) return undefined;
    throw new EvalError(`cannot read '${name}' of ${typeName(target)} (use ?. for optional data)`);
  }
  const read = readOwn(target, name);
  if (read.kind === 'refused') throw new EvalError(read.reason);
  return read.kind === 'found' ? read.value : undefined;
}

function number(op: string, value: unknown): number {
  if (typeof value !== 'number') {
    throw new EvalError(`operator '${op}' needs numbers, got ${typeName(value)}`);
  }
  return value;
}

function finite(op: string, value: number): number {
  if (!Number.isFinite(value))
    throw new EvalError(`'${op}' gives a non-finite number (division by zero?)`);
  return value;
}

function plus(left: unknown, right: unknown): unknown {
  if (typeof left === 'number' && typeof right === 'number') return finite('+', left + right);
  if (typeof left === 'string' || typeof right === 'string') {
    const text = toText(left) + toText(right);
    return boundedString("'+'", text);
  }
  if (Array.isArray(left) && Array.isArray(right)) {
    if (left.length + right.length > MAX_ARRAY_LENGTH) {
      throw new EvalError(`'+' gives an array longer than ${MAX_ARRAY_LENGTH}`);
    }
    return [...(left as unknown[]), ...(right as unknown[])];
  }
  throw new EvalError(`operator '+' cannot add ${typeName(left)} and ${typeName(right)}`);
}

function compare(op: string, left: unknown, right: unknown): boolean {
  const same =
    (typeof left === 'number' && typeof right === 'number') ||
    (typeof left === 'string' && typeof right === 'string');
  if (!same) {
    throw new EvalError(
      `operator '${op}' cannot compare ${typeName(left)} with ${typeName(right)}`,
    );
  }
  const [a, b] = [left, right];
  if (op === '<') return a < b;
  if (op === '>') return a > b;
  if (op === '<=') return a <= b;
  return a >= b;
}

function binary(node: Extract<ExprNode, { type: 'binary' }>, context: ExpressionContext): unknown {
  const op = node.operator;
  const left = evaluate(node.left, context);
  // Short-circuit operators return an operand, as in Python and JS.
  if (op === '&&' || op === 'and') return isTruthy(left) ? evaluate(node.right, context) : left;
  if (op === '||' || op === 'or') return isTruthy(left) ? left : evaluate(node.right, context);
  if (op === '??')
    return left === null || left === undefined ? evaluate(node.right, context) : left;
  const right = evaluate(node.right, context);
  switch (op) {
    case '==':
    case '===':
      return deepEqual(left, right);
    case '!=':
    case '!==':
      return !deepEqual(left, right);
    case '<':
    case '>':
    case '<=':
    case '>=':
      return compare(op, left, right);
    case 'in':
      return containsValue(right, left);
    case '+':
      return plus(left, right);
    case '-':
      return finite(op, number(op, left) - number(op, right));
    case '*':
      return finite(op, number(op, left) * number(op, right));
    case '/':
      return finite(op, number(op, left) / number(op, right));
    case '%':
      return finite(op, number(op, left) % number(op, right));
    case '**':
      return finite(op, number(op, left) ** number(op, right));
  }
}

function evaluate(node: ExprNode, context: ExpressionContext): unknown {
  switch (node.type) {
    case 'literal':
      return node.value;
    case 'identifier':
      return lookupVariable(context, node.name);
    case 'member':
      return member(node, context);
    case 'call': {
      const fn = lookupFunction(node.name);
      if (fn === undefined) {
        throw new EvalError(
          `unknown function '${node.name}' (available: ${FUNCTION_NAMES.join(', ')})`,
        );
      }
      return fn(...node.args.map((arg) => evaluate(arg, context)));
    }
    case 'unary': {
      const value = evaluate(node.argument, context);
      if (node.operator === '!' || node.operator === 'not') return !isTruthy(value);
      const n = number(node.operator, value);
      return node.operator === '-' ? -n : n;
    }
    case 'binary':
      return binary(node, context);
    case 'conditional':
      return isTruthy(evaluate(node.test, context))
        ? evaluate(node.consequent, context)
        : evaluate(node.alternate, context);
    case 'array':
      return node.elements.map((element) => evaluate(element, context));
  }
}

/**
 * Parses and checks an expression once (PipitError('BAD_REQUEST') on bad syntax, forbidden
 * constructs or exceeded limits) and returns it ready to evaluate.
 *
 * @example
 * const e = compileExpression('volume > 50 and device == "kitchen"');
 * e.evaluate({ volume: 60, device: 'kitchen' }); // true
 */
export function compileExpression(source: string): CompiledExpression {
  const tree = parseExpression(source);
  return {
    source,
    evaluate(context: ExpressionContext): unknown {
      try {
        return evaluate(tree, context);
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
export function evaluateExpression(source: string, context: ExpressionContext): unknown {
  return compileExpression(source).evaluate(context);
}
