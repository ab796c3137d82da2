/**
 * Parsing half of the expression language: jsep turns the text into its AST, which is then checked
 * against a whitelist and copied into our own small, typed AST. Anything jsep can parse but we do not
 * support (`this`, `a.b()`, `new`, compound statements, bitwise operators, ...) is refused here,
 * once, so that evaluation never meets an unknown node.
 */
import jsep from 'jsep';
import { PipitError } from '../core/errors.ts';
import { FUNCTION_NAMES, lookupFunction } from './expression-functions.ts';
import { FORBIDDEN_NAMES } from './values.ts';

/** Longest accepted expression text (characters). */
export const MAX_EXPRESSION_LENGTH = 4096;

/** Deepest accepted nesting, both of brackets in the text and of the resulting tree. */
export const MAX_EXPRESSION_DEPTH = 64;

const BINARY_OPERATORS = [
  '||',
  'or',
  '&&',
  'and',
  '??',
  '==',
  '!=',
  '===',
  '!==',
  '<',
  '>',
  '<=',
  '>=',
  'in',
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
] as const;
const UNARY_OPERATORS = ['-', '+', '!', 'not'] as const;

export type BinaryOperator = (typeof BINARY_OPERATORS)[number];
export type UnaryOperator = (typeof UNARY_OPERATORS)[number];

/** The checked expression tree the evaluator walks. */
export type ExprNode =
  | { type: 'literal'; value: string | number | boolean | null }
  | { type: 'identifier'; name: string }
  | { type: 'member'; object: ExprNode; property: ExprNode; optional: boolean }
  | { type: 'call'; name: string; args: ExprNode[] }
  | { type: 'unary'; operator: UnaryOperator; argument: ExprNode }
  | { type: 'binary'; operator: BinaryOperator; left: ExprNode; right: ExprNode }
  | { type: 'conditional'; test: ExprNode; consequent: ExprNode; alternate: ExprNode }
  | { type: 'array'; elements: ExprNode[] };

// Python spellings (`and`, `or`, `not`, `in`) keep Platypush expressions working. jsep's operator
// table is process-wide; adding word operators only turns former syntax errors into valid input.
jsep.addBinaryOp('or', 1);
jsep.addBinaryOp('and', 2);
jsep.addBinaryOp('in', 7);
jsep.addUnaryOp('not');

const binarySet: ReadonlySet<string> = new Set(BINARY_OPERATORS);
const unarySet: ReadonlySet<string> = new Set(UNARY_OPERATORS);

/**
 * Shortens an expression for error messages so a 4 KiB input does not flood logs or clients.
 *
 * @example
 * quoteExpression('a + b'); // '"a + b"'
 */
export function quoteExpression(source: string): string {
  const short = source.length > 80 ? `${source.slice(0, 77)}...` : source;
  return JSON.stringify(short);
}

function fail(source: string, what: string): never {
  throw new PipitError('BAD_REQUEST', `expression ${quoteExpression(source)}: ${what}`);
}

/** Bracket depth outside string literals, checked before jsep so it never recurses too deep. */
function bracketDepth(source: string): number {
  let depth = 0;
  let max = 0;
  let quote: string | null = null;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (quote !== null) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') max = Math.max(max, ++depth);
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
  }
  return max;
}

/**
 * Parses and checks an expression (the text inside `${...}`) into an {@link ExprNode} tree.
 * Throws PipitError('BAD_REQUEST') naming the expression and the problem.
 *
 * @example
 * parseExpression('volume + 10'); // { type: 'binary', operator: '+', ... }
 */
export function parseExpression(source: string): ExprNode {
  if (typeof source !== 'string') fail(String(source), 'must be a string');
  if (source.length > MAX_EXPRESSION_LENGTH) {
    fail(source, `longer than ${MAX_EXPRESSION_LENGTH} characters (${source.length})`);
  }
  if (source.trim() === '') fail(source, 'is empty');
  if (source.includes('`')) fail(source, 'template literals (backticks) are not supported');
  if (bracketDepth(source) > MAX_EXPRESSION_DEPTH) {
    fail(source, `nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
  }
  let tree: jsep.Expression;
  try {
    tree = jsep(source);
  } catch (err) {
    if (err instanceof RangeError) fail(source, 'too deeply nested');
    fail(source, `syntax error: ${err instanceof Error ? err.message : String(err)}`);
  }
  return convert(source, tree, 0);
}

function convert(source: string, node: jsep.Expression, depth: number): ExprNode {
  if (depth > MAX_EXPRESSION_DEPTH)
    fail(source, `nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
  const next = (child: unknown): ExprNode => convert(source, child as jsep.Expression, depth + 1);
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      if (value instanceof RegExp) fail(source, 'regular expression literals are not supported');
      return { type: 'literal', value };
    }
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (FORBIDDEN_NAMES.has(name)) fail(source, `'${name}' is not accessible`);
      if (name === 'new' || name === 'function' || name === 'import' || name === 'delete') {
        fail(source, `'${name}' is not supported`);
      }
      return { type: 'identifier', name };
    }
    case 'MemberExpression': {
      const m = node as jsep.MemberExpression;
      let property: ExprNode;
      if (m.computed) {
        property = next(m.property);
        if (property.type === 'literal' && FORBIDDEN_NAMES.has(String(property.value))) {
          fail(source, `property '${String(property.value)}' is not accessible`);
        }
      } else {
        const name = (m.property as jsep.Identifier).name;
        if (FORBIDDEN_NAMES.has(name)) fail(source, `property '${name}' is not accessible`);
        property = { type: 'literal', value: name };
      }
      return { type: 'member', object: next(m.object), property, optional: m.optional === true };
    }
    case 'CallExpression': {
      const c = node as jsep.CallExpression;
      if (c.callee.type !== 'Identifier') {
        fail(source, 'only whitelisted functions can be called, by name (no method calls)');
      }
      const name = (c.callee as jsep.Identifier).name;
      if (lookupFunction(name) === undefined) {
        fail(source, `unknown function '${name}' (available: ${FUNCTION_NAMES.join(', ')})`);
      }
      return { type: 'call', name, args: c.arguments.map(next) };
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      if (!unarySet.has(u.operator)) fail(source, `operator '${u.operator}' is not supported`);
      return { type: 'unary', operator: u.operator as UnaryOperator, argument: next(u.argument) };
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      if (!binarySet.has(b.operator)) fail(source, `operator '${b.operator}' is not supported`);
      const operator = b.operator as BinaryOperator;
      return { type: 'binary', operator, left: next(b.left), right: next(b.right) };
    }
    case 'ConditionalExpression': {
      const c = node as jsep.ConditionalExpression;
      return {
        type: 'conditional',
        test: next(c.test),
        consequent: next(c.consequent),
        alternate: next(c.alternate),
      };
    }
    case 'ArrayExpression': {
      const elements = (node as jsep.ArrayExpression).elements;
      if (elements.some((e) => e === null)) fail(source, 'array holes are not supported');
      return { type: 'array', elements: elements.map(next) };
    }
    case 'ThisExpression':
      return fail(source, "'this' is not supported");
    case 'Compound':
    case 'SequenceExpression':
      return fail(source, 'must be a single expression (unexpected extra tokens or ";" / ",")');
    default:
      return fail(source, `${node.type} is not supported`);
  }
}
