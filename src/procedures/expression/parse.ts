/**
 * Parsing half of the expression language: a small recursive-descent parser with Python's grammar
 * and precedence (`x if c else y`, `not`, chained comparisons, `in`/`not in`, `is None`, `**`, `//`,
 * slices, tuples, keyword arguments) plus the JS-style forms that were accepted before (`&& || !`,
 * `?:`, `??`, `?.`, `===`). It builds our own small, typed tree (expression-ast.ts); every construct
 * it does not build is refused here, at load, with a message naming it, so evaluation never meets
 * an unknown node. Operands and calls are in expression-primary.ts.
 */
import { PipitError } from '../../core/errors.ts';
import { MAX_EXPRESSION_LENGTH, checkDepth, quoteExpression } from './ast.ts';
import type { BinaryOperator, CompareOperator, ExprNode, UnaryOperator } from './ast.ts';
import { COMPARISONS, Cursor } from './cursor.ts';
import { SyntaxFailure, tokenize } from './lex.ts';
import { primary } from './primary.ts';

export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, quoteExpression } from './ast.ts';
export type * from './ast.ts';

function expression(c: Cursor): ExprNode {
  if (c.isName('lambda')) throw new SyntaxFailure('lambda is not supported');
  c.enter();
  let node = orTest(c);
  if (c.isOp('?')) {
    c.next();
    const consequent = c.expression();
    c.expectOp(':');
    node = { type: 'conditional', test: node, consequent, alternate: c.expression() };
  } else if (c.isName('if')) {
    c.next();
    const test = orTest(c);
    if (!c.isName('else')) throw new SyntaxFailure("'x if c' needs an 'else' part");
    c.next();
    node = { type: 'conditional', test, consequent: node, alternate: c.expression() };
  }
  c.leave();
  return node;
}

function orTest(c: Cursor): ExprNode {
  let left = andTest(c);
  while (c.isName('or') || c.isOp('||') || c.isOp('??')) {
    const operator = c.next().value as BinaryOperator;
    left = { type: 'binary', operator, left, right: andTest(c) };
  }
  return left;
}

function andTest(c: Cursor): ExprNode {
  let left = notTest(c);
  while (c.isName('and') || c.isOp('&&')) {
    const operator = c.next().value as BinaryOperator;
    left = { type: 'binary', operator, left, right: notTest(c) };
  }
  return left;
}

function notTest(c: Cursor): ExprNode {
  if (!c.isName('not')) return comparison(c);
  c.next();
  c.enter();
  const argument = notTest(c);
  c.leave();
  return { type: 'unary', operator: 'not', argument };
}

function compareOperator(c: Cursor): CompareOperator | null {
  const token = c.peek();
  if (token.kind === 'op' && COMPARISONS.has(token.value)) {
    return c.next().value as CompareOperator;
  }
  if (token.kind !== 'name') return null;
  const second = c.peek(1);
  const followedBy = (word: string): boolean => second.kind === 'name' && second.value === word;
  if (token.value === 'in') return (c.next(), 'in');
  if (token.value === 'not' && followedBy('in')) return (c.next(), c.next(), 'not in');
  if (token.value === 'is' && followedBy('not')) return (c.next(), c.next(), 'is not');
  if (token.value === 'is') return (c.next(), 'is');
  return null;
}

function comparison(c: Cursor): ExprNode {
  const first = sum(c);
  const operators: CompareOperator[] = [];
  const operands = [first];
  for (let op = compareOperator(c); op !== null; op = compareOperator(c)) {
    operators.push(op);
    operands.push(sum(c));
  }
  if (operators.length === 0) return first;
  const singleton = (n: ExprNode | undefined): boolean =>
    n?.type === 'literal' && (n.value === null || typeof n.value === 'boolean');
  operators.forEach((op, i) => {
    if (
      (op === 'is' || op === 'is not') &&
      !singleton(operands[i]) &&
      !singleton(operands[i + 1])
    ) {
      throw new SyntaxFailure(`'${op}' only compares with None, True or False (use == or !=)`);
    }
  });
  return { type: 'compare', operators, operands };
}

function sum(c: Cursor): ExprNode {
  let left = term(c);
  while (c.isOp('+') || c.isOp('-')) {
    const operator = c.next().value as BinaryOperator;
    left = { type: 'binary', operator, left, right: term(c) };
  }
  return left;
}

function term(c: Cursor): ExprNode {
  let left = factor(c);
  while (c.isOp('*') || c.isOp('/') || c.isOp('//') || c.isOp('%')) {
    const operator = c.next().value as BinaryOperator;
    left = { type: 'binary', operator, left, right: factor(c) };
  }
  return left;
}

function factor(c: Cursor): ExprNode {
  if (c.isOp('-') || c.isOp('+') || c.isOp('!')) {
    const operator = c.next().value as UnaryOperator;
    c.enter();
    const argument = factor(c);
    c.leave();
    return { type: 'unary', operator, argument };
  }
  const base = primary(c);
  if (!c.isOp('**')) return base;
  c.next();
  c.enter();
  const exponent = factor(c);
  c.leave();
  return { type: 'binary', operator: '**', left: base, right: exponent };
}

function fail(source: string, what: string): never {
  throw new PipitError('BAD_REQUEST', `expression ${quoteExpression(source)}: ${what}`);
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
  try {
    const cursor = new Cursor(source, tokenize(source), expression);
    const tree = cursor.expression();
    if (cursor.peek().kind !== 'eof') cursor.unexpected(true);
    checkDepth(tree);
    return tree;
  } catch (err) {
    if (err instanceof SyntaxFailure) fail(source, err.message);
    if (err instanceof RangeError) fail(source, 'too deeply nested');
    throw err;
  }
}
