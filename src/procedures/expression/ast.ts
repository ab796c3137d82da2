/**
 * The checked expression tree shared by the parser and the evaluator, and the limits on it.
 */
import { SyntaxFailure } from './lex.ts';

/** Longest accepted expression text (characters). */
export const MAX_EXPRESSION_LENGTH = 4096;

/** Deepest accepted nesting, both of brackets in the text and of the resulting tree. */
export const MAX_EXPRESSION_DEPTH = 64;

export type BinaryOperator =
  '||' | 'or' | '&&' | 'and' | '??' | '+' | '-' | '*' | '/' | '//' | '%' | '**';
export type CompareOperator =
  '==' | '!=' | '===' | '!==' | '<' | '>' | '<=' | '>=' | 'in' | 'not in' | 'is' | 'is not';
export type UnaryOperator = '-' | '+' | '!' | 'not';

/** A keyword argument in a call: `name=value`. */
export interface Keyword {
  name: string;
  value: ExprNode;
}

/** The checked expression tree the evaluator walks. */
export type ExprNode =
  | { type: 'literal'; value: string | number | boolean | null }
  | { type: 'identifier'; name: string }
  | { type: 'context' }
  | { type: 'member'; object: ExprNode; property: ExprNode; optional: boolean }
  | { type: 'slice'; object: ExprNode; parts: [ExprNode | null, ExprNode | null, ExprNode | null] }
  | { type: 'call'; name: string; args: ExprNode[]; keywords: Keyword[] }
  | {
      type: 'method';
      object: ExprNode;
      name: string;
      args: ExprNode[];
      keywords: Keyword[];
      optional: boolean;
    }
  | { type: 'config'; args: ExprNode[] }
  | { type: 'unary'; operator: UnaryOperator; argument: ExprNode }
  | { type: 'binary'; operator: BinaryOperator; left: ExprNode; right: ExprNode }
  | { type: 'compare'; operators: CompareOperator[]; operands: ExprNode[] }
  | { type: 'conditional'; test: ExprNode; consequent: ExprNode; alternate: ExprNode }
  | { type: 'array'; elements: ExprNode[] }
  | { type: 'dict'; entries: [ExprNode, ExprNode][] };

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

function children(node: ExprNode): (ExprNode | null)[] {
  switch (node.type) {
    case 'member':
      return [node.object, node.property];
    case 'slice':
      return [node.object, ...node.parts];
    case 'call':
      return [...node.args, ...node.keywords.map((k) => k.value)];
    case 'method':
      return [node.object, ...node.args, ...node.keywords.map((k) => k.value)];
    case 'config':
      return node.args;
    case 'unary':
      return [node.argument];
    case 'binary':
      return [node.left, node.right];
    case 'compare':
      return node.operands;
    case 'conditional':
      return [node.test, node.consequent, node.alternate];
    case 'array':
      return node.elements;
    case 'dict':
      return node.entries.flat();
    default:
      return [];
  }
}

/**
 * Refuses a tree nested deeper than {@link MAX_EXPRESSION_DEPTH} (left-associative chains such as
 * `1+1+...` or `a.b.c...` are built without recursion, so the parser alone does not bound them).
 *
 * @example
 * checkDepth(tree, 0);
 */
export function checkDepth(node: ExprNode, depth = 0): void {
  if (depth > MAX_EXPRESSION_DEPTH) {
    throw new SyntaxFailure(`nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
  }
  for (const child of children(node)) if (child !== null) checkDepth(child, depth + 1);
}
