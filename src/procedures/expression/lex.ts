/**
 * Tokenizer of the expression language: Python literals (strings with escapes, raw strings,
 * implicit concatenation is left to the parser; numbers with `_`, `0x`/`0o`/`0b`), identifiers and
 * the operator symbols of both Python and the JS-style forms. It never evaluates anything; constructs
 * that cannot be tokenized are refused with a message naming them (f-strings, bytes, backticks).
 */

/** One token; `pos`/`end` index its first and past-last characters in the source. */
export interface Token {
  readonly kind: 'num' | 'str' | 'name' | 'op' | 'eof';
  /** The text of names and symbols, the decoded value of strings, the source of numbers. */
  readonly value: string;
  /** The value of a number token (0 for others). */
  readonly number: number;
  readonly pos: number;
  readonly end: number;
}

/** A problem in the text; the parser adds the expression and the error code. */
export class SyntaxFailure extends Error {}

// Longest first: the tokenizer takes the first symbol that matches at the current position.
// prettier-ignore
const SYMBOLS = [
  '**=', '//=', '>>=', '<<=', '===', '!==', '...',
  '**', '//', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '<<', '>>', ':=', '=>', '->',
  '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@=',
  '+', '-', '*', '/', '%', '<', '>', '=', '!', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}',
  '|', '&', '^', '~', '@', ';', '#', '\\',
];

const IDENTIFIER = /[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*/uy;
const NUMBER =
  /0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?/y;
const IDENTIFIER_CHAR = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]/u;
const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

function escape(source: string, i: number): { text: string; next: number } {
  const ch = source[i] ?? '';
  if (Object.hasOwn(SIMPLE_ESCAPES, ch)) return { text: SIMPLE_ESCAPES[ch]!, next: i + 1 };
  if (ch === '\n') return { text: '', next: i + 1 }; // line continuation
  const octal = /^[0-7]{1,3}/.exec(source.slice(i, i + 3));
  if (octal) return { text: String.fromCharCode(parseInt(octal[0], 8)), next: i + octal[0].length };
  const width = ch === 'x' ? 2 : ch === 'u' ? 4 : ch === 'U' ? 8 : 0;
  if (width > 0) {
    const hex = source.slice(i + 1, i + 1 + width);
    const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === width ? parseInt(hex, 16) : -1;
    if (code < 0 || code > 0x10ffff) throw new SyntaxFailure(`invalid \\${ch} escape`);
    return { text: String.fromCodePoint(code), next: i + 1 + width };
  }
  if (ch === 'N') throw new SyntaxFailure('\\N{...} escapes are not supported');
  return { text: `\\${ch}`, next: i + 1 }; // Python keeps unknown escapes as written
}

function readString(source: string, start: number, raw: boolean): { value: string; end: number } {
  const quote = source[start]!;
  const triple = source.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let i = start + close.length;
  let value = '';
  while (i < source.length) {
    if (source.startsWith(close, i)) return { value, end: i + close.length };
    const ch = source[i]!;
    if (ch === '\n' && !triple) break;
    if (ch === '\\') {
      if (raw) {
        value += source.slice(i, i + 2);
        i += 2;
        continue;
      }
      const { text, next } = escape(source, i + 1);
      value += text;
      i = next;
      continue;
    }
    value += ch;
    i++;
  }
  throw new SyntaxFailure(`unterminated string starting at character ${start + 1}`);
}

const STRING_PREFIXES = new Set(['r', 'u', 'b', 'f', 'rb', 'br', 'fr', 'rf']);

/**
 * Splits an expression into tokens, ending with an `eof` token.
 *
 * @example
 * tokenize("a if b else 'c'").map((t) => t.value); // ['a', 'if', 'b', 'else', 'c', '']
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f') {
      i++;
      continue;
    }
    if (ch === '`') throw new SyntaxFailure('template literals (backticks) are not supported');
    if (ch === '"' || ch === "'") {
      const { value, end } = readString(source, i, false);
      tokens.push({ kind: 'str', value, number: 0, pos: i, end });
      i = end;
      continue;
    }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(source);
    if (num) {
      const end = i + num[0].length;
      if (IDENTIFIER_CHAR.test(source[end] ?? '')) {
        throw new SyntaxFailure(`invalid number '${source.slice(i, end + 1)}'`);
      }
      const value = Number(num[0].replaceAll('_', ''));
      if (!Number.isFinite(value)) throw new SyntaxFailure(`number '${num[0]}' is too large`);
      tokens.push({ kind: 'num', value: num[0], number: value, pos: i, end });
      i = end;
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const id = IDENTIFIER.exec(source);
    if (id) {
      const end = i + id[0].length;
      const next = source[end];
      const prefix = id[0].toLowerCase();
      if ((next === '"' || next === "'") && STRING_PREFIXES.has(prefix)) {
        if (prefix.includes('f')) {
          throw new SyntaxFailure("f-strings are not supported (use '{}'.format(...))");
        }
        if (prefix.includes('b')) throw new SyntaxFailure('bytes literals are not supported');
        const { value, end: stop } = readString(source, end, prefix === 'r');
        tokens.push({ kind: 'str', value, number: 0, pos: i, end: stop });
        i = stop;
        continue;
      }
      tokens.push({ kind: 'name', value: id[0], number: 0, pos: i, end });
      i = end;
      continue;
    }
    const symbol = SYMBOLS.find((s) => source.startsWith(s, i));
    // `a?.5:1` is a conditional, not optional chaining.
    if (symbol === '?.' && /\d/.test(source[i + 2] ?? '')) {
      tokens.push({ kind: 'op', value: '?', number: 0, pos: i, end: i + 1 });
      i++;
      continue;
    }
    if (symbol === undefined) throw new SyntaxFailure(`unexpected character '${ch}'`);
    tokens.push({ kind: 'op', value: symbol, number: 0, pos: i, end: i + symbol.length });
    i += symbol.length;
  }
  tokens.push({ kind: 'eof', value: '', number: 0, pos: source.length, end: source.length });
  return tokens;
}
