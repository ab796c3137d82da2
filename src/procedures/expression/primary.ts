/**
 * The operands of the grammar: literals, names (`True`, `context`, `Config.get(...)`, variables),
 * tuples and lists, and the postfix chain of member access, indexes, slices, function calls and
 * whitelisted method calls. Calls are checked here against the whitelists, keyword arguments
 * included, and a literal `'...'.format(...)` template is checked at load.
 */
import type { ExprNode, Keyword } from './ast.ts';
import { notAccessible } from './cursor.ts';
import type { Cursor } from './cursor.ts';
import { FUNCTION_NAMES, functionKeywords } from './functions.ts';
import { FormatError, parseFormat } from './format.ts';
import { SyntaxFailure } from './lex.ts';
import { METHOD_NAMES, methodKeywords } from './methods.ts';
import type { Keywords } from './methods.ts';

const LITERALS: ReadonlyMap<string, boolean | null> = new Map([
  ['True', true],
  ['False', false],
  ['None', null],
  ['true', true],
  ['false', false],
  ['null', null],
]);
const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'if', 'else']);
const RESERVED = new Set(
  (
    'this new typeof void delete instanceof function class def import yield await async del for ' +
    'while return raise try with assert global nonlocal pass break continue elif except finally ' +
    'let var const'
  ).split(' '),
);

/** Refuses keyword arguments the function or method does not take (at load). */
function checkKeywords(label: string, keywords: Keyword[], allowed: Keywords): void {
  if (allowed === 'any') return;
  for (const { name } of keywords) {
    if (allowed.has(name)) continue;
    const accepted = [...allowed.keys()];
    throw new SyntaxFailure(
      accepted.length === 0
        ? `${label} takes no keyword arguments`
        : `${label} does not take keyword argument '${name}' (accepted: ${accepted.join(', ')})`,
    );
  }
}

/**
 * An operand and its postfix chain (`a.b`, `a?.b`, `a[i]`, `a[i:j]`, `f(x)`, `a.m(x)`).
 *
 * @example
 * primary(cursor); // { type: 'method', name: 'upper', ... } for `name.upper()`
 */
export function primary(c: Cursor): ExprNode {
  const start = c.peek().pos;
  let node = atom(c);
  for (;;) {
    if (c.isOp('.') || c.isOp('?.')) {
      const dot = c.next();
      const optional = dot.value === '?.';
      if (optional && c.isOp('[')) {
        c.next();
        node = subscript(c, node, true);
        continue;
      }
      if (optional && c.isOp('(')) throw new SyntaxFailure('optional calls are not supported');
      if (c.peek().kind !== 'name') c.unexpected(false);
      const name = c.next().value;
      if (notAccessible(name)) throw new SyntaxFailure(`property '${name}' is not accessible`);
      if (c.isOp('(')) {
        const receiver = c.source.slice(start, dot.pos).trim();
        node = method(c, node, name, optional, receiver);
        continue;
      }
      node = {
        type: 'member',
        object: node,
        property: { type: 'literal', value: name },
        optional,
      };
    } else if (c.isOp('[')) {
      c.next();
      node = subscript(c, node, false);
    } else if (c.isOp('(')) {
      node = call(c, node);
    } else {
      return node;
    }
  }
}

/** After `[`: an index (`a[i]`) or a slice (`a[i:j:k]`). */
function subscript(c: Cursor, object: ExprNode, optional: boolean): ExprNode {
  const parts: [ExprNode | null, ExprNode | null, ExprNode | null] = [null, null, null];
  let slice = false;
  if (!c.isOp(':')) parts[0] = c.expression();
  if (c.isOp(':')) {
    slice = true;
    c.next();
    if (!c.isOp(':') && !c.isOp(']')) parts[1] = c.expression();
    if (c.isOp(':')) {
      c.next();
      if (!c.isOp(']')) parts[2] = c.expression();
    }
  }
  if (c.isOp(',')) throw new SyntaxFailure('tuple indexes (a[i, j]) are not supported');
  c.expectOp(']');
  if (slice) {
    if (optional) throw new SyntaxFailure('optional slices (?.[a:b]) are not supported');
    return { type: 'slice', object, parts };
  }
  const property = parts[0]!;
  if (property.type === 'literal' && notAccessible(String(property.value))) {
    throw new SyntaxFailure(`property '${String(property.value)}' is not accessible`);
  }
  return { type: 'member', object, property, optional };
}

/** `(a, b, k=v)`: positional arguments, then keyword arguments. */
function parseArguments(c: Cursor): { args: ExprNode[]; keywords: Keyword[] } {
  c.expectOp('(');
  const args: ExprNode[] = [];
  const keywords: Keyword[] = [];
  while (!c.isOp(')')) {
    if (c.isOp('*') || c.isOp('**')) {
      throw new SyntaxFailure('starred arguments (*args, **kwargs) are not supported');
    }
    if (c.peek().kind === 'name' && c.isOp('=', 1)) {
      const name = c.next().value;
      c.next();
      if (keywords.some((k) => k.name === name)) {
        throw new SyntaxFailure(`keyword argument '${name}' repeated`);
      }
      keywords.push({ name, value: c.expression() });
    } else {
      if (keywords.length > 0) {
        throw new SyntaxFailure('positional argument follows keyword argument');
      }
      args.push(c.expression());
    }
    if (!c.isOp(',')) break;
    c.next();
  }
  c.expectOp(')');
  return { args, keywords };
}

/** `name(...)`: only whitelisted functions, by name. */
function call(c: Cursor, callee: ExprNode): ExprNode {
  if (callee.type !== 'identifier') {
    throw new SyntaxFailure(
      'only whitelisted functions (by name) and methods (value.name(...)) can be called',
    );
  }
  const name = callee.name;
  const allowed = functionKeywords(name);
  if (allowed === undefined) {
    throw new SyntaxFailure(`unknown function '${name}' (available: ${FUNCTION_NAMES.join(', ')})`);
  }
  const { args, keywords } = parseArguments(c);
  checkKeywords(`${name}()`, keywords, allowed);
  return { type: 'call', name, args, keywords };
}

/** `value.name(...)`: only whitelisted methods; a literal format template is checked now. */
function method(
  c: Cursor,
  object: ExprNode,
  name: string,
  optional: boolean,
  receiver: string,
): ExprNode {
  const allowed = methodKeywords(name);
  if (allowed === undefined) {
    const shown = receiver.length > 30 ? `${receiver.slice(0, 27)}...` : receiver;
    throw new SyntaxFailure(
      `method calls are limited to ${METHOD_NAMES.join(', ')}; \`${shown}.${name}()\` is not allowed`,
    );
  }
  const { args, keywords } = parseArguments(c);
  checkKeywords(`${name}()`, keywords, allowed);
  if (name === 'format' && object.type === 'literal' && typeof object.value === 'string') {
    try {
      parseFormat(object.value);
    } catch (err) {
      if (err instanceof FormatError) throw new SyntaxFailure(`format(): ${err.message}`);
      throw err;
    }
  }
  return { type: 'method', object, name, args, keywords, optional };
}

/** After `{`: `{}` or `{key: value, ...}` (a trailing comma allowed); set literals are refused. */
function dict(c: Cursor): ExprNode {
  c.expectOp('{');
  const entries: [ExprNode, ExprNode][] = [];
  while (!c.isOp('}')) {
    const key = c.expression();
    if (c.isName('for'))
      throw new SyntaxFailure('comprehensions (for ... in ...) are not supported');
    if (!c.isOp(':')) {
      if (c.isOp(',') || c.isOp('}'))
        throw new SyntaxFailure('set literals ({a, b}) are not supported: write a list [a, b]');
      c.unexpected(true);
    }
    c.next();
    entries.push([key, c.expression()]);
    if (c.isName('for'))
      throw new SyntaxFailure('comprehensions (for ... in ...) are not supported');
    if (!c.isOp(',')) break;
    c.next();
  }
  c.expectOp('}');
  return { type: 'dict', entries };
}

/** A literal, a name, a parenthesised expression, tuple or list, or a dict. */
function atom(c: Cursor): ExprNode {
  const token = c.peek();
  if (token.kind === 'num') return (c.next(), { type: 'literal', value: token.number });
  if (token.kind === 'str') {
    let value = '';
    while (c.peek().kind === 'str') value += c.next().value; // 'a' 'b' is 'ab'
    return { type: 'literal', value };
  }
  if (token.kind === 'name') return named(c);
  if (c.isOp('{')) return dict(c);
  if (c.isOp('(') || c.isOp('[')) {
    const close = c.next().value === '(' ? ')' : ']';
    const elements: ExprNode[] = [];
    let tuple = close === ']';
    while (!c.isOp(close)) {
      elements.push(c.expression());
      if (c.isName('for')) c.unexpected(true);
      if (!c.isOp(',')) break;
      tuple = true;
      c.next();
    }
    c.expectOp(close);
    // (x) is x; (), (x,) and (x, y) are tuples, read as lists.
    return tuple || elements.length === 0 ? { type: 'array', elements } : elements[0]!;
  }
  return c.unexpected(false);
}

/** A name: a literal (`True`, `null`), `context`, `Config.get(...)` or a variable. */
function named(c: Cursor): ExprNode {
  const name = c.peek().value;
  if (KEYWORDS.has(name)) c.unexpected(false);
  c.next();
  const literal = LITERALS.get(name);
  if (literal !== undefined) return { type: 'literal', value: literal };
  if (name === 'context') return { type: 'context' };
  if (name === 'Config') return config(c);
  if (name === 'lambda') throw new SyntaxFailure('lambda is not supported');
  if (RESERVED.has(name)) throw new SyntaxFailure(`'${name}' is not supported`);
  if (notAccessible(name)) throw new SyntaxFailure(`'${name}' is not accessible`);
  return { type: 'identifier', name };
}

/** After `Config`: exactly `.get(key)` or `.get(key, default)`. */
function config(c: Cursor): ExprNode {
  const usage = "Config is only available as Config.get('key') or Config.get('key', default)";
  const get = c.peek(1);
  if (!c.isOp('.') || get.kind !== 'name' || get.value !== 'get' || !c.isOp('(', 2)) {
    throw new SyntaxFailure(usage);
  }
  c.next();
  c.next();
  const { args, keywords } = parseArguments(c);
  const key = args[0];
  if (keywords.length > 0 || args.length < 1 || args.length > 2) throw new SyntaxFailure(usage);
  if (key?.type === 'literal' && typeof key.value !== 'string') {
    throw new SyntaxFailure('Config.get() key must be a string');
  }
  return { type: 'config', args };
}
