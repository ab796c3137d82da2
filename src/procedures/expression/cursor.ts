/**
 * The token stream of the parser: lookahead, the nesting counter, and the refusal of an unexpected
 * token with a message naming the construct when it is a known one (assignment, bitwise operators,
 * comprehensions, dict literals, ...).
 */
import { MAX_EXPRESSION_DEPTH } from './ast.ts';
import type { ExprNode } from './ast.ts';
import { SyntaxFailure } from './lex.ts';
import type { Token } from './lex.ts';
import { FORBIDDEN_NAMES } from '../values.ts';

/** Operators of the comparison level. */
export const COMPARISONS = new Set(['==', '!=', '===', '!==', '<', '>', '<=', '>=']);
const BITWISE = new Set(['|', '&', '^', '~', '<<', '>>']);
const NAMED_SYMBOLS: ReadonlyMap<string, string> = new Map([
  [':=', 'assignment expressions (:=) are not supported'],
  ['=>', 'arrow functions are not supported'],
  ['->', "'->' is not supported"],
  ['...', 'spread (...) is not supported'],
  ['#', 'comments (#) are not supported'],
  ['@', "operator '@' is not supported"],
  [';', 'must be a single expression (unexpected ";")'],
  [',', 'must be a single expression (write a tuple as (a, b))'],
]);

const isDunder = (name: string): boolean => name.length > 4 && /^__.*__$/.test(name);

/**
 * True for names never readable: `__proto__`, `prototype`, `constructor` and Python dunders
 * (`__class__`, `__globals__`, ...).
 *
 * @example
 * notAccessible('__class__'); // true
 */
export const notAccessible = (name: string): boolean => FORBIDDEN_NAMES.has(name) || isDunder(name);

/** Position in the token list, shared by the grammar (expression-parse.ts) and expression-primary.ts. */
export class Cursor {
  readonly source: string;
  private readonly tokens: Token[];
  private readonly grammar: (c: Cursor) => ExprNode;
  private index = 0;
  private depth = 0;

  constructor(source: string, tokens: Token[], grammar: (c: Cursor) => ExprNode) {
    this.source = source;
    this.tokens = tokens;
    this.grammar = grammar;
  }

  /** Parses a full expression at the current position. */
  expression(): ExprNode {
    return this.grammar(this);
  }

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.index++;
    return token;
  }

  isOp(value: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === 'op' && token.value === value;
  }

  isName(value: string): boolean {
    const token = this.peek();
    return token.kind === 'name' && token.value === value;
  }

  expectOp(value: string): void {
    if (!this.isOp(value)) this.unexpected(false);
    this.index++;
  }

  /** Counts one level of recursion, refusing more than {@link MAX_EXPRESSION_DEPTH}. */
  enter(): void {
    if (++this.depth > MAX_EXPRESSION_DEPTH) {
      throw new SyntaxFailure(`nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
    }
  }

  leave(): void {
    this.depth--;
  }

  /** Refuses the current token, naming the construct when it is a known one. */
  unexpected(afterExpression: boolean): never {
    const token = this.peek();
    const value = token.value;
    if (token.kind === 'eof') throw new SyntaxFailure('syntax error: unexpected end of expression');
    if (token.kind === 'op') {
      const named = NAMED_SYMBOLS.get(value);
      if (named !== undefined && (afterExpression || value !== ',')) throw new SyntaxFailure(named);
      if (BITWISE.has(value)) {
        throw new SyntaxFailure(`bitwise operator '${value}' is not supported`);
      }
      if (value === '=' || (value.endsWith('=') && !COMPARISONS.has(value))) {
        throw new SyntaxFailure(`assignment ('${value}') is not supported`);
      }
    }
    if (token.kind === 'name' && value === 'for') {
      throw new SyntaxFailure('comprehensions (for ... in ...) are not supported');
    }
    const shown = JSON.stringify(value.length > 20 ? `${value.slice(0, 17)}...` : value);
    const hint = afterExpression ? ' (must be a single expression)' : '';
    throw new SyntaxFailure(
      `syntax error at character ${token.pos + 1}: unexpected ${shown}${hint}`,
    );
  }
}
