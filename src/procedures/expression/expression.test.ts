import { describe, expect, it } from 'vitest';
import { PipitError } from '../../core/errors.ts';
import {
  MAX_EXPRESSION_DEPTH,
  MAX_EXPRESSION_LENGTH,
  compileExpression,
  evaluateExpression,
} from './expression.ts';

const ctx = {
  n: 5,
  s: 'Hello',
  list: [1, 2, 3],
  obj: { a: { b: 'deep' }, 'with space': 1, zero: 0 },
  nil: null,
  empty: [],
};

function ev(source: string, context: Record<string, unknown> = ctx): unknown {
  return evaluateExpression(source, context);
}

function fails(source: string, code: string, pattern: RegExp, context = ctx): void {
  let caught: unknown;
  try {
    ev(source, context);
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${source} to fail`).toBeInstanceOf(PipitError);
  expect((caught as PipitError).code).toBe(code);
  expect((caught as PipitError).message).toMatch(pattern);
}

describe('literals and identifiers', () => {
  it('evaluates literals', () => {
    expect(ev('42')).toBe(42);
    expect(ev('1.5e2')).toBe(150);
    expect(ev('"a\\"b"')).toBe('a"b');
    expect(ev("'x'")).toBe('x');
    expect(ev('true')).toBe(true);
    expect(ev('null')).toBe(null);
    expect(ev('True')).toBe(true);
    expect(ev('False')).toBe(false);
    expect(ev('None')).toBe(null);
    expect(ev('[1, "a", [n]]')).toEqual([1, 'a', [5]]);
  });

  it('resolves own context properties only', () => {
    expect(ev('n')).toBe(5);
    expect(ev('nil')).toBe(null);
    fails('toString', 'INVALID_ARGUMENTS', /'toString' is inherited/);
    fails('hasOwnProperty', 'INVALID_ARGUMENTS', /inherited/);
  });

  it('names unknown variables and lists the known ones', () => {
    fails(
      'volum',
      'INVALID_ARGUMENTS',
      /expression "volum": unknown variable 'volum' \(known: n, s/,
    );
  });

  it('Python literals cannot be shadowed by the context', () => {
    expect(ev('True', { True: 'no' })).toBe(true);
  });

  it('works with a null-prototype context', () => {
    const c = Object.create(null) as Record<string, unknown>;
    c.x = 2;
    expect(ev('x * 3', c)).toBe(6);
    fails('y', 'INVALID_ARGUMENTS', /unknown variable 'y'/, c as typeof ctx);
  });
});

describe('member access', () => {
  it('reads dotted, indexed and quoted properties', () => {
    expect(ev('obj.a.b')).toBe('deep');
    expect(ev("obj['with space']")).toBe(1);
    expect(ev('list[0]')).toBe(1);
    expect(ev('list[n - 3]')).toBe(3);
    expect(ev('list.length')).toBe(3);
    expect(ev('s.length')).toBe(5);
    expect(ev('s[1]')).toBe('e');
  });

  it('missing properties are undefined, reading from null is an error', () => {
    expect(ev('obj.nope')).toBeUndefined();
    expect(ev('list[10]')).toBeUndefined();
    fails('nil.x', 'INVALID_ARGUMENTS', /cannot read 'x' of null/);
    expect(ev('nil?.x')).toBeUndefined();
    expect(ev('obj.nope ?? "default"')).toBe('default');
  });

  it('refuses inherited properties and non-string keys', () => {
    fails('obj.toString', 'INVALID_ARGUMENTS', /inherited/);
    fails('list.map', 'INVALID_ARGUMENTS', /inherited/);
    fails('s.toUpperCase', 'INVALID_ARGUMENTS', /strings have no property 'toUpperCase'/);
    fails('n.toFixed', 'INVALID_ARGUMENTS', /cannot read 'toFixed' of number/);
    fails('obj[list]', 'INVALID_ARGUMENTS', /property key must be a string or an integer/);
  });

  it('refuses accessor properties (getters are code)', () => {
    let called = false;
    const withGetter = {
      get secret() {
        called = true;
        return 1;
      },
    };
    fails('o.secret', 'INVALID_ARGUMENTS', /accessor/, { o: withGetter } as never);
    expect(called).toBe(false);
  });
});

describe('operators', () => {
  it('arithmetic', () => {
    expect(ev('n + 1')).toBe(6);
    expect(ev('n - 1 * 2')).toBe(3);
    expect(ev('(n - 1) * 2')).toBe(8);
    expect(ev('n / 2')).toBe(2.5);
    expect(ev('n % 2')).toBe(1);
    expect(ev('2 ** 10')).toBe(1024);
    expect(ev('-n')).toBe(-5);
    expect(ev('+n')).toBe(5);
    fails('n / 0', 'INVALID_ARGUMENTS', /division by zero/);
    fails('2 ** 10000', 'INVALID_ARGUMENTS', /non-finite/);
    expect(ev('s * 2')).toBe('HelloHello'); // Python repeats strings
    fails('s * 1.5', 'INVALID_ARGUMENTS', /operator '\*' needs numbers, got string/);
    fails('-s', 'INVALID_ARGUMENTS', /needs numbers/);
  });

  it('+ concatenates strings (with JSON for objects) and arrays', () => {
    expect(ev('s + " " + n')).toBe('Hello 5');
    expect(ev('"v=" + obj.a')).toBe('v={"b":"deep"}');
    expect(ev('list + [4]')).toEqual([1, 2, 3, 4]);
    fails('list + n', 'INVALID_ARGUMENTS', /cannot add array and number/);
  });

  it('== is strict and structural', () => {
    expect(ev('n == 5')).toBe(true);
    expect(ev('n == "5"')).toBe(false);
    expect(ev('n != "5"')).toBe(true);
    expect(ev('n === 5')).toBe(true);
    expect(ev('list == [1, 2, 3]')).toBe(true);
    expect(ev('null == nil')).toBe(true);
  });

  it('comparisons need matching types', () => {
    expect(ev('n > 4 && n <= 5')).toBe(true);
    expect(ev('"abc" < "abd"')).toBe(true);
    fails('n < "6"', 'INVALID_ARGUMENTS', /'<' not supported between instances of 'int' and 'str'/);
  });

  it('logic uses Python truthiness and returns operands', () => {
    expect(ev('empty || "fallback"')).toBe('fallback');
    expect(ev('!empty')).toBe(true);
    expect(ev('!obj')).toBe(false);
    expect(ev('n && s')).toBe('Hello');
    expect(ev('n > 3 and s == "Hello"')).toBe(true);
    expect(ev('not n or 7')).toBe(7);
    expect(ev('empty ? "yes" : "no"')).toBe('no');
    // short-circuit: the right side would fail if evaluated
    expect(ev('false && missing.x')).toBe(false);
    expect(ev('true || missing.x')).toBe(true);
  });

  it('parses ?. followed by a digit as a conditional, as JS does', () => {
    expect(ev('n?.5:1')).toBe(0.5);
    expect(ev('nil?.5:1')).toBe(1);
    expect(ev('obj?.zero')).toBe(0);
  });

  it('a property read and a method call of the same name stay distinct', () => {
    const c = { d: { get: 'data', keys: [1] } };
    expect(ev('d.get', c)).toBe('data');
    expect(ev('d.keys', c)).toEqual([1]);
    expect(ev("d.get('get')", c)).toBe('data');
    expect(ev('d.keys()', c)).toEqual(['get', 'keys']);
  });

  it('in tests membership', () => {
    expect(ev('2 in list')).toBe(true);
    expect(ev('9 in list')).toBe(false);
    expect(ev('"ell" in s')).toBe(true);
    expect(ev('"a" in obj')).toBe(true);
    expect(ev('"toString" in obj')).toBe(false);
    fails('1 in n', 'INVALID_ARGUMENTS', /'in' needs an array, object or string/);
  });
});

describe('functions', () => {
  it('converts and inspects values', () => {
    expect(ev('len(list)')).toBe(3);
    expect(ev('len(s)')).toBe(5);
    expect(ev('len(obj)')).toBe(3);
    expect(ev('str(n)')).toBe('5');
    expect(ev('str(obj.a)')).toBe("{'b': 'deep'}"); // Python's str(), not JSON
    expect(ev('int("42")')).toBe(42);
    expect(ev('int(3.9)')).toBe(3);
    expect(ev('float("2.5")')).toBe(2.5);
    expect(ev('bool(empty)')).toBe(false);
    expect(ev('type(list)')).toBe('array');
    fails('int("soon")', 'INVALID_ARGUMENTS', /invalid literal for int\(\) with base 10: 'soon'/);
  });

  it('strings, numbers and collections', () => {
    expect(ev('lower(s) + upper(s)')).toBe('helloHELLO');
    expect(ev('trim("  x ")')).toBe('x');
    expect(ev('round(2.345, 2)')).toBe(2.35);
    expect(ev('round(2.5)')).toBe(2); // ties to even, as Python
    expect(ev('min(list)')).toBe(1);
    expect(ev('max(3, 9, 4)')).toBe(9);
    expect(ev('abs(-3)')).toBe(3);
    expect(ev('floor(2.7) + ceil(2.1)')).toBe(5);
    expect(ev('sum(list)')).toBe(6);
    expect(ev('keys(obj.a)')).toEqual(['b']);
    expect(ev('values(obj.a)')).toEqual(['deep']);
    expect(ev('json(obj.a)')).toBe('{"b":"deep"}');
    expect(ev('from_json("[1,2]")')).toEqual([1, 2]);
    expect(ev('range(3)')).toEqual([0, 1, 2]);
    expect(ev('range(1, 7, 2)')).toEqual([1, 3, 5]);
    expect(ev('join(list, "-")')).toBe('1-2-3');
    expect(ev('split("a,b", ",")')).toEqual(['a', 'b']);
    expect(ev('replace(s, "l", "L")')).toBe('HeLLo');
    expect(ev('startswith(s, "He") and endswith(s, "lo")')).toBe(true);
    expect(ev('contains(list, 3)')).toBe(true);
    expect(ev('get(obj, "zero", 7)')).toBe(0);
    expect(ev('get(obj, "nope", 7)')).toBe(7);
    expect(ev('get(nil, "x", 1)')).toBe(1);
    expect(ev('slice(list, 1)')).toEqual([2, 3]);
    const t = ev('now()') as number;
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(5);
  });

  it('checks argument counts and types', () => {
    fails('len()', 'INVALID_ARGUMENTS', /len\(\) takes 1 argument/);
    fails('lower(n)', 'INVALID_ARGUMENTS', /lower\(\) expects a string, got number/);
    fails('from_json("{")', 'INVALID_ARGUMENTS', /from_json\(\)/);
    // get() is the forgiving accessor: refused and missing keys both give the default
    expect(ev('get(obj, "constructor", 1)')).toBe(1);
    expect(ev('get(obj, "__proto__")')).toBeUndefined();
  });

  it('bounds result sizes', () => {
    fails('range(1000000)', 'INVALID_ARGUMENTS', /range\(\) longer than/);
    const big = 'x'.repeat(600_000);
    fails('s + s', 'INVALID_ARGUMENTS', /longer than 1000000/, { s: big } as never);
    fails('replace(s, "x", "yy")', 'INVALID_ARGUMENTS', /longer than/, { s: big } as never);
    fails('join([s, s], "")', 'INVALID_ARGUMENTS', /longer than/, { s: big } as never);
  });
});

describe('hostile input', () => {
  const hostile: [string, RegExp][] = [
    ['constructor', /'constructor' is not accessible/],
    ['obj.constructor', /'constructor' is not accessible/],
    ["a.constructor.constructor('return process')()", /not accessible|no method calls/],
    ['__proto__', /'__proto__' is not accessible/],
    ["obj['__proto__']", /'__proto__' is not accessible/],
    ["obj['const' + 'ructor']", /'constructor' is not accessible/],
    ['obj.prototype', /'prototype' is not accessible/],
    ['process', /unknown variable 'process'/],
    ['globalThis', /unknown variable 'globalThis'/],
    ["require('fs')", /unknown function 'require'/],
    ['this', /'this' is not supported/],
    ["import('fs')", /'import' is not supported/],
    ['a = 1', /assignment \('='\) is not supported/],
    ['n += 1', /syntax error|not supported/],
    ['new Date()', /single expression|not supported/],
    ['`${n}`', /template literals/],
    ['s.toString()', /method calls are limited to .*; `s.toString\(\)` is not allowed/],
    ['len.call(1)', /`len.call\(\)` is not allowed/],
    ['(0, eval)("1")', /only whitelisted functions \(by name\) and methods/],
    ['eval("1")', /unknown function 'eval'/],
    ['Function("return 1")', /unknown function 'Function'/],
    ['a => 1', /arrow functions are not supported/],
    ['n; n', /single expression/],
    ['n | 1', /operator '\|' is not supported/],
    ['~n', /operator '~' is not supported/],
    ['typeof n', /'typeof' is not supported/],
    ['{1}', /set literals/],
    ['', /is empty/],
  ];
  it.each(hostile)('refuses %s', (source, pattern) => {
    let caught: unknown;
    try {
      ev(source, { ...ctx, a: {} });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PipitError);
    expect(['BAD_REQUEST', 'INVALID_ARGUMENTS']).toContain((caught as PipitError).code);
    expect((caught as PipitError).message).toMatch(pattern);
  });

  it('refuses a dynamic constructor key at run time', () => {
    fails('obj[k]', 'INVALID_ARGUMENTS', /'constructor' is not accessible/, {
      ...ctx,
      k: 'constructor',
    } as never);
    fails('obj[k]', 'INVALID_ARGUMENTS', /'__proto__' is not accessible/, {
      ...ctx,
      k: '__proto__',
    } as never);
  });

  it('refuses an own __proto__ key from parsed JSON', () => {
    const data = JSON.parse('{"__proto__": {"polluted": 1}}') as unknown;
    fails("d['__proto__']", 'BAD_REQUEST', /not accessible/, { d: data } as never);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses overlong input', () => {
    const long = '1+'.repeat(MAX_EXPRESSION_LENGTH) + '1';
    expect(() => compileExpression(long)).toThrow(/longer than 4096 characters/);
  });

  it('refuses deep nesting cleanly (no stack overflow)', () => {
    const parens = '('.repeat(2000) + '1' + ')'.repeat(2000);
    expect(() => compileExpression(parens)).toThrow(/nested deeper than 64/);
    const arrays = '['.repeat(2000) + ']'.repeat(2000);
    expect(() => compileExpression(arrays)).toThrow(/nested deeper than 64/);
    expect(() => compileExpression('!'.repeat(4000) + '1')).toThrow(/nested deeper/);
    expect(() => compileExpression('-'.repeat(4000) + '1')).toThrow(/nested deeper/);
    expect(() => compileExpression('a?b:'.repeat(800) + 'c')).toThrow(/nested deeper/);
    expect(() => compileExpression('a.'.repeat(1500) + 'b')).toThrow(/nested deeper/);
    expect(() => compileExpression('1+'.repeat(2000) + '1')).toThrow(/nested deeper/);
  });

  it('accepts nesting up to the limit', () => {
    const depth = MAX_EXPRESSION_DEPTH - 2;
    expect(ev('('.repeat(depth) + '1' + ')'.repeat(depth))).toBe(1);
  });

  it('error messages truncate long expressions', () => {
    const source = 'unknown_' + 'x'.repeat(500);
    try {
      ev(source);
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message.length).toBeLessThan(400);
    }
  });

  it('never touches Object.prototype', () => {
    for (const src of ['__proto__', "obj['__proto__']", 'obj.constructor']) {
      expect(() => ev(src)).toThrow(PipitError);
    }
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  });
});

describe('compileExpression', () => {
  it('compiles once and evaluates against several contexts', () => {
    const e = compileExpression('volume * 2');
    expect(e.source).toBe('volume * 2');
    expect(e.evaluate({ volume: 10 })).toBe(20);
    expect(e.evaluate({ volume: 21 })).toBe(42);
  });

  it('reports syntax errors at compile time', () => {
    expect(() => compileExpression('1 +')).toThrow(/expression "1 \+": syntax error/);
    expect(() => compileExpression('nope(1)')).toThrow(/unknown function 'nope'/);
  });
});
