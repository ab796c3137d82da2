/**
 * The operators of the expression language on plain values: arithmetic with Python's semantics
 * (`//` and `%` floor towards minus infinity, `'ab' * 2`, booleans count as 0/1, division by zero is
 * an error, results stay finite) plus the JS-style `+` that joins strings with any value; and one
 * comparison step (`==` structural, `<` Python ordering, `in`, `is None`).
 */
import type { CompareOperator } from './ast.ts';
import { FunctionArgumentError, pyCompare, repeat } from './python.ts';
import { MAX_ARRAY_LENGTH, deepEqual, toText, typeName } from '../values.ts';
import { boundedString, containsValue } from './functions.ts';

/** A failing operation; the evaluator adds the expression text and the code. */
export class EvalError extends FunctionArgumentError {}

/**
 * The number an arithmetic operand stands for (booleans count as 0/1, as in Python).
 *
 * @example
 * operand('-', true); // 1
 */
export function operand(op: string, value: unknown): number {
  if (typeof value === 'number' || typeof value === 'boolean') return Number(value);
  throw new EvalError(`operator '${op}' needs numbers, got ${typeName(value)}`);
}

function finite(op: string, value: number): number {
  if (!Number.isFinite(value)) throw new EvalError(`'${op}' gives a non-finite number`);
  return value === 0 ? 0 : value; // no -0: Python ints have none, and it prints as 0 anyway
}

function divisor(op: string, value: unknown): number {
  const n = operand(op, value);
  if (n === 0) throw new EvalError(`'${op}': division by zero`);
  return n;
}

/** Python's `%` on numbers: the result takes the sign of the divisor. */
function modulo(a: number, b: number): number {
  let mod = a % b;
  if (mod !== 0 && b < 0 !== mod < 0) mod += b;
  return mod === 0 ? 0 : mod;
}

/** Python's `//` (CPython's float floor division, exact for integers). */
function floorDivide(a: number, b: number): number {
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && b < 0 !== mod < 0) div -= 1;
  if (div === 0) return 0;
  const floor = Math.floor(div);
  return div - floor > 0.5 ? floor + 1 : floor;
}

function plus(left: unknown, right: unknown): unknown {
  const numeric = (v: unknown): boolean => typeof v === 'number' || typeof v === 'boolean';
  if (numeric(left) && numeric(right)) return finite('+', Number(left) + Number(right));
  if (typeof left === 'string' || typeof right === 'string') {
    return boundedString("'+'", toText(left) + toText(right));
  }
  if (Array.isArray(left) && Array.isArray(right)) {
    if (left.length + right.length > MAX_ARRAY_LENGTH) {
      throw new EvalError(`'+' gives an array longer than ${MAX_ARRAY_LENGTH}`);
    }
    return [...(left as unknown[]), ...(right as unknown[])];
  }
  throw new EvalError(`operator '+' cannot add ${typeName(left)} and ${typeName(right)}`);
}

function times(left: unknown, right: unknown): unknown {
  const sequence = (v: unknown): v is string | unknown[] =>
    typeof v === 'string' || Array.isArray(v);
  const count = (v: unknown): v is number | boolean =>
    typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v));
  if (sequence(left) && count(right)) return repeat(left, Number(right));
  if (count(left) && sequence(right)) return repeat(right, Number(left));
  return finite('*', operand('*', left) * operand('*', right));
}

/**
 * Applies an arithmetic operator (`+ - * / // % **`).
 *
 * @example
 * arithmetic('//', -7, 2); // -4
 */
export function arithmetic(op: string, left: unknown, right: unknown): unknown {
  switch (op) {
    case '+':
      return plus(left, right);
    case '-':
      return finite(op, operand(op, left) - operand(op, right));
    case '*':
      return times(left, right);
    case '/':
      return finite(op, operand(op, left) / divisor(op, right));
    case '//':
      return floorDivide(operand(op, left), divisor(op, right));
    case '%':
      if (typeof left === 'string') {
        throw new EvalError("'%' string formatting is not supported (use '{}'.format(...))");
      }
      return modulo(operand(op, left), divisor(op, right));
    default:
      return finite(op, operand(op, left) ** operand(op, right));
  }
}

/**
 * One step of a comparison chain.
 *
 * @example
 * compareOnce('not in', 5, [1, 2]); // true
 */
export function compareOnce(op: CompareOperator, left: unknown, right: unknown): boolean {
  switch (op) {
    case '==':
    case '===':
      return deepEqual(left, right);
    case '!=':
    case '!==':
      return !deepEqual(left, right);
    case 'in':
      return containsValue(right, left);
    case 'not in':
      return !containsValue(right, left);
    case 'is':
    case 'is not': {
      const same = (left ?? null) === (right ?? null); // a missing value is None
      return op === 'is' ? same : !same;
    }
    default: {
      const d = pyCompare(left, right, op);
      return op === '<' ? d < 0 : op === '>' ? d > 0 : op === '<=' ? d <= 0 : d >= 0;
    }
  }
}
