import { describe, expect, it, vi } from 'vitest';
import { PipitError } from '../../core/errors.ts';
import { METHOD_NAMES, compileExpression, evaluateExpression } from './expression.ts';
import type { ExpressionContext } from './expression.ts';

const ctx = {
  n: 7,
  f: 2.5,
  name: 'Kitchen',
  items: [3, 1, 2],
  data: { key: 'value' },
  d: { b: 1, a: 2 },
  nothing: null,
  flag: true,
};

function caught(run: () => unknown): PipitError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(PipitError);
    return err as PipitError;
  }
  throw new Error('expected an error');
}

/** Refused when compiled (at load), with BAD_REQUEST and a message naming the construct. */
const REFUSED_AT_LOAD: [string, RegExp][] = [
  ['lambda x: x', /lambda is not supported/],
  ['sorted(items, key=lambda x: -x)', /lambda is not supported/],
  ['x.pop()', /method calls are limited to upper, lower, .*, items; `x.pop\(\)` is not allowed/],
  ['items.append(1)', /`items.append\(\)` is not allowed/],
  ['items.sort()', /`items.sort\(\)` is not allowed/],
  ['d.update(data)', /`d.update\(\)` is not allowed/],
  ['d.setdefault("a", 1)', /`d.setdefault\(\)` is not allowed/],
  ['name.encode()', /`name.encode\(\)` is not allowed/],
  ['name.title()', /`name.title\(\)` is not allowed/],
  ['data["key"].upper().zfill(3)', /`data\["key"\].upper\(\).zfill\(\)` is not allowed/],
  ['[x for x in items]', /comprehensions \(for ... in ...\) are not supported/],
  ['(x for x in items)', /comprehensions/],
  ['sum(x for x in items)', /comprehensions/],
  ['f"{n}"', /f-strings are not supported \(use '\{\}'.format\(...\)\)/],
  ["b'x'", /bytes literals are not supported/],
  ['{1, 2}', /set literals \(\{a, b\}\) are not supported: write a list/],
  ['{"a": 1 for x in y}', /comprehensions \(for ... in ...\) are not supported/],
  ['{"a" 1}', /syntax error at character 6: unexpected "1"/],
  ['x = 1', /assignment \('='\) is not supported/],
  ['n += 1', /assignment \('\+='\) is not supported/],
  ['(y := 1)', /assignment expressions \(:=\) are not supported/],
  ['len(*items)', /starred arguments \(\*args, \*\*kwargs\) are not supported/],
  ['len(**d)', /starred arguments/],
  ['[*items]', /syntax error at character 2: unexpected "\*"/],
  ['items[1, 2]', /tuple indexes \(a\[i, j\]\) are not supported/],
  ['n if flag', /'x if c' needs an 'else' part/],
  ['n is 7', /'is' only compares with None, True or False \(use == or !=\)/],
  ['name is not "x"', /'is not' only compares with None, True or False/],
  ['n & 1', /bitwise operator '&' is not supported/],
  ['n | 1', /bitwise operator '\|' is not supported/],
  ['n ^ 1', /bitwise operator '\^' is not supported/],
  ['n << 1', /bitwise operator '<<' is not supported/],
  ['~n', /bitwise operator '~' is not supported/],
  ['n @ n', /operator '@' is not supported/],
  ['n # comment', /comments \(#\) are not supported/],
  ['...items', /spread \(...\) is not supported/],
  ['n, n', /must be a single expression \(write a tuple as \(a, b\)\)/],
  ['n; n', /must be a single expression \(unexpected ";"\)/],
  ['n n', /syntax error at character 3: unexpected "n" \(must be a single expression\)/],
  ['import os', /'import' is not supported/],
  ['yield n', /'yield' is not supported/],
  ['await n', /'await' is not supported/],
  ['del n', /'del' is not supported/],
  ['def', /'def' is not supported/],
  ['class', /'class' is not supported/],
  ['__import__("os")', /'__import__' is not accessible/],
  ['__builtins__', /'__builtins__' is not accessible/],
  ['getattr(n, "real")', /unknown function 'getattr' \(available: abs, bool, ceil/],
  ['eval("1")', /unknown function 'eval'/],
  ['exec("1")', /unknown function 'exec'/],
  ['open("/etc/passwd")', /unknown function 'open'/],
  ['globals()', /unknown function 'globals'/],
  ['print(n)', /unknown function 'print'/],
  ['type(n).__mro__', /property '__mro__' is not accessible/],
  ['data.__dict__', /property '__dict__' is not accessible/],
  ['data["__globals__"]', /property '__globals__' is not accessible/],
  ['context.__class__', /property '__class__' is not accessible/],
  ["''.format.__class__", /property '__class__' is not accessible/],
  ['data.get.constructor', /property 'constructor' is not accessible/],
  ['name.upper.call()', /`name.upper.call\(\)` is not allowed/],
  ['(name.upper)()', /only whitelisted functions \(by name\) and methods/],
  ['data["get"]("key")', /only whitelisted functions \(by name\) and methods/],
  ['items[0](1)', /only whitelisted functions/],
  ['name?.()', /optional calls are not supported/],
  ['items?.[0:1]', /optional slices \(\?\.\[a:b\]\) are not supported/],
  [
    'sorted(items, key=len)',
    /sorted\(\) does not take keyword argument 'key' \(accepted: reverse\)/,
  ],
  ['len(items, x=1)', /len\(\) takes no keyword arguments/],
  ['name.upper(x=1)', /upper\(\) takes no keyword arguments/],
  [
    'name.split(",", max=1)',
    /split\(\) does not take keyword argument 'max' \(accepted: sep, maxsplit\)/,
  ],
  ['round(f, ndigits=1, ndigits=2)', /keyword argument 'ndigits' repeated/],
  ['round(ndigits=1, f)', /positional argument follows keyword argument/],
  [
    "'{0.__class__}'.format(n)",
    /format fields may only be \{\}, \{0\} or \{name\}; '\{0.__class__\}' is not allowed/,
  ],
  ["'{0[0]}'.format(items)", /format fields may only be .*'\{0\[0\]\}' is not allowed/],
  ["'{a.b}'.format(a=1)", /'\{a.b\}' is not allowed/],
  ["'{!r}'.format(n)", /format conversions \('\{!r\}'\) are not supported/],
  ["'{:{w}}'.format(n, w=3)", /nested format fields are not supported/],
  ["'{:#x}'.format(n)", /format option '#' is not supported/],
  ["'{:z.1f}'.format(f)", /format option 'z' is not supported/],
  ["'{:c}'.format(65)", /format type 'c' is not supported/],
  ["'{:05,}'.format(n)", /zero-padding with a ',' separator is not supported/],
  ["'{:2000}'.format(n)", /format widths and precisions over 1000 are not supported/],
  ["'{:.1001f}'.format(f)", /over 1000 are not supported/],
  ["'{:>>>}'.format(n)", /invalid format spec '>>>'/],
  [
    "'{} {1}'.format(1, 2)",
    /cannot switch from automatic field numbering to manual field specification/,
  ],
  [
    "'{1} {}'.format(1, 2)",
    /cannot switch from manual field specification to automatic field numbering/,
  ],
  ["'}'.format()", /Single '\}' encountered in format string/],
  ["'{'.format()", /Single '\{' encountered in format string/],
  ["'{0'.format(1)", /expected '\}' before end of string/],
  ['Config', /Config is only available as Config.get\('key'\) or Config.get\('key', default\)/],
  ['Config.items()', /Config is only available as Config.get/],
  ['Config.get', /Config is only available as Config.get/],
  ['Config.get()', /Config is only available as Config.get/],
  ['Config.get("a", 1, 2)', /Config is only available as Config.get/],
  ['Config.get(key="a")', /Config is only available as Config.get/],
  ['Config["get"]("a")', /Config is only available as Config.get/],
  ['Config.get(1)', /Config.get\(\) key must be a string/],
  ['Config.get("a").constructor', /property 'constructor' is not accessible/],
  ['`n`', /template literals \(backticks\) are not supported/],
  ["'abc", /unterminated string starting at character 1/],
  ["'\\N{DASH}'", /\\N\{...\} escapes are not supported/],
  ["'\\x4'", /invalid \\x escape/],
  ['1abc', /invalid number '1a'/],
  ['1e999', /number '1e999' is too large/],
  ['(', /syntax error: unexpected end of expression/],
  ['[1,,2]', /syntax error at character 4: unexpected ","/],
  ['not', /syntax error: unexpected end of expression/],
  ['n not n', /syntax error at character 3: unexpected "not"/],
];

describe('constructs refused at load', () => {
  it.each(REFUSED_AT_LOAD)('%s', (source, pattern) => {
    const error = caught(() => compileExpression(source));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(pattern);
    expect(error.message.startsWith(`expression ${JSON.stringify(source)}: `)).toBe(true);
  });

  it('lists every whitelisted method in the refusal', () => {
    const error = caught(() => compileExpression('x.pop()'));
    for (const name of METHOD_NAMES) expect(error.message).toContain(name);
    expect(METHOD_NAMES).toEqual(expect.arrayContaining(['upper', 'format', 'items', 'count']));
  });
});

/** Accepted at load, failing at run time with Python's wording (INVALID_ARGUMENTS). */
const FAILING_AT_RUN: [string, RegExp][] = [
  ["int('3.9')", /invalid literal for int\(\) with base 10: '3.9'/],
  ["int('')", /invalid literal for int\(\) with base 10: ''/],
  ["int('0x10')", /invalid literal for int\(\) with base 10: '0x10'/],
  ["int('010', 0)", /invalid literal for int\(\) with base 0: '010'/],
  ["int('12', 99)", /int\(\) base must be 0 or an integer from 2 to 36/],
  ['int(nothing)', /int\(\) argument must be a string or a number, not 'NoneType'/],
  ["float('abc')", /could not convert string to float: 'abc'/],
  ["float('inf')", /float\(\): 'inf' is not a finite number/],
  ['min([])', /min\(\) arg is an empty sequence/],
  ['max()', /max expected at least 1 argument, got 0/],
  ['sorted([1, "a"])', /'<' not supported between instances of '(int|str)' and '(int|str)'/],
  ['sorted(n)', /sorted\(\): 'int' object is not iterable/],
  ['n < "6"', /'<' not supported between instances of 'int' and 'str'/],
  ['len(n)', /object of type 'int' has no len\(\)/],
  ['", ".join(items)', /sequence item 0: expected str instance, int found/],
  ['items.index(9)', /9 is not in list/],
  ['items.index("9")', /'9' is not in list/],
  ['name.index("zz")', /substring not found/],
  ['n.upper()', /'int' object has no method 'upper'/],
  [
    'data.upper()',
    /'dict' object has no method 'upper' \(dict methods: get, keys, values, items\)/,
  ],
  ['items.get(0)', /'list' object has no method 'get' \(list methods: index, count\)/],
  ['nothing.upper()', /'NoneType' object has no method 'upper'/],
  ['name.split("")', /split\(\): empty separator/],
  ['name.startswith(1)', /startswith\(\) argument must be str or a tuple of str, not int/],
  ['name.strip(1)', /strip\(\) argument must be str, not int/],
  ['data.get()', /get\(\) takes 1 to 2 argument\(s\), got 0/],
  ['name.upper(1)', /upper\(\) takes 0 argument\(s\), got 1/],
  ['round(f, 1, ndigits=2)', /round\(\) got multiple values for argument 'ndigits'/],
  ['round(f, 1.5)', /round\(\) ndigits must be an integer, not float/],
  ["'{} {}'.format(1)", /Replacement index 1 out of range for positional args tuple/],
  ["'{name}'.format(1)", /no keyword argument 'name' for field '\{name\}'/],
  ["'{:d}'.format(2.5)", /Unknown format code 'd' for object of type 'float'/],
  ["'{:s}'.format(3)", /Unknown format code 's' for object of type 'int'/],
  ["'{:s}'.format(True)", /Unknown format code 's' for object of type 'bool'/],
  ["'{:d}'.format('a')", /Unknown format code 'd' for object of type 'str'/],
  ["'{:+}'.format('a')", /Sign not allowed in string format specifier/],
  ["'{:,}'.format('a')", /Cannot specify ',' with 's'\./],
  ["'{:=5}'.format('a')", /'=' alignment not allowed in string format specifier/],
  ["'{:,x}'.format(255)", /Cannot specify ',' with 'x'\./],
  ["'{:.2d}'.format(3)", /Precision not allowed in integer format specifier/],
  ["'{:>3}'.format(nothing)", /unsupported format string passed to NoneType.__format__/],
  ["'{:>3}'.format(items)", /unsupported format string passed to list.__format__/],
  ['"%s" % n', /'%' string formatting is not supported \(use '\{\}'.format\(...\)\)/],
  ['n / 0', /'\/': division by zero/],
  ['n // 0', /'\/\/': division by zero/],
  ['n % 0', /'%': division by zero/],
  ['10.0 ** 400', /'\*\*' gives a non-finite number/],
  ['items[1:2:0]', /slice step cannot be zero/],
  ['n[1:2]', /cannot slice int/],
  ['items["a":]', /slice indices must be integers or None, got str/],
  ['"ab" * 600000', /'\*' gives a result longer than 1000000/],
  ['[0] * 200000', /'\*' gives a result longer than 100000/],
  ['Config.get(n)', /Config.get\(\) key must be a string, got number/],
  ["Config.get('a.__proto__.b')", /Config.get\(\): '__proto__' is not accessible/],
];

describe('Python errors at run time', () => {
  it.each(FAILING_AT_RUN)('%s', (source, pattern) => {
    const compiled = compileExpression(source);
    const error = caught(() => compiled.evaluate(ctx));
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toMatch(pattern);
  });
});

describe('context: the whole variable context, read-only', () => {
  it('reads keys, including ones that are not identifiers', () => {
    expect(evaluateExpression("context['with space'] + 1", { 'with space': 1 })).toBe(2);
    expect(evaluateExpression("context.get('missing', 'd')", ctx)).toBe('d');
    expect(evaluateExpression("'n' in context and 'x' not in context", ctx)).toBe(true);
    expect(evaluateExpression('sorted(context.keys())', { b: 1, a: 2 })).toEqual(['a', 'b']);
  });

  it('always means the mapping; a variable named context is context["context"]', () => {
    const shadow = { context: 'event data', x: 1 };
    expect(evaluateExpression("context['context']", shadow)).toBe('event data');
    expect(evaluateExpression("context['x']", shadow)).toBe(1);
  });

  it('as a value is a snapshot, not the live context', () => {
    const live: Record<string, unknown> = { a: 1, list: [1] };
    const snap = evaluateExpression('context', live) as Record<string, unknown>;
    expect(snap).toEqual({ a: 1, list: [1] });
    expect(snap).not.toBe(live);
    snap.a = 99;
    expect(live.a).toBe(1);
    expect(evaluateExpression('[context][0]', live)).not.toBe(live);
  });

  it('never reaches a prototype', () => {
    expect(evaluateExpression("context.get('constructor')", ctx)).toBeNull();
    expect(evaluateExpression("context.get('toString', 1)", ctx)).toBe(1);
    expect(evaluateExpression("'constructor' in context", ctx)).toBe(false);
    const error = caught(() => evaluateExpression('context[k]', { ...ctx, k: '__proto__' }));
    expect(error.message).toMatch(/'__proto__' is not accessible/);
  });
});

describe('Config.get', () => {
  const settings: Record<string, unknown> = {
    'music.mpd': { host: 'localhost', port: 6600 },
    'backend.http': { port: 8008 },
    empty: null,
  };
  const options = {
    config: (key: string): unknown => (Object.hasOwn(settings, key) ? settings[key] : undefined),
  };
  const ev = (source: string): unknown => compileExpression(source).evaluate(ctx, options);

  it('reads configuration values through options.config', () => {
    expect(ev("Config.get('music.mpd').get('host')")).toBe('localhost');
    expect(ev("Config.get('backend.http')['port'] + 1")).toBe(8009);
    expect(ev("Config.get('music.' + 'mpd')['port']")).toBe(6600);
    expect(ev("Config.get('missing')")).toBeNull();
    expect(ev("Config.get('missing', 'fallback')")).toBe('fallback');
    expect(ev("Config.get('empty', 'fallback')")).toBeNull(); // present, and None
    expect(ev("'{}:{}'.format(Config.get('music.mpd')['host'], 6600)")).toBe('localhost:6600');
  });

  it('gives None (or the default) for everything without options.config', () => {
    expect(evaluateExpression("Config.get('music.mpd')", ctx)).toBeNull();
    expect(evaluateExpression("Config.get('music.mpd', 5)", ctx)).toBe(5);
    expect(evaluateExpression("Config.get('x') is None", ctx)).toBe(true);
  });

  it('passes the key as written and nothing else', () => {
    const config = vi.fn((_key: string): unknown => 1);
    expect(compileExpression("Config.get('a.b')").evaluate(ctx, { config })).toBe(1);
    expect(config).toHaveBeenCalledExactlyOnceWith('a.b');
    const error = caught(() =>
      compileExpression("Config.get('__proto__')").evaluate(ctx, { config }),
    );
    expect(error.message).toMatch(/'__proto__' is not accessible/);
    expect(config).toHaveBeenCalledTimes(1);
  });

  it('reports a failing lookup, keeping PipitErrors as they are', () => {
    const boom = (): unknown => {
      throw new Error('boom');
    };
    const error = caught(() =>
      compileExpression("Config.get('x')").evaluate(ctx, { config: boom }),
    );
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toMatch(/Config.get\('x'\) failed: boom/);
    const denied = (): unknown => {
      throw new PipitError('FORBIDDEN', 'not for expressions');
    };
    const passed = caught(() =>
      compileExpression("Config.get('x')").evaluate(ctx, { config: denied }),
    );
    expect(passed.code).toBe('FORBIDDEN');
  });

  it('is not a variable: a context key named Config does not change it', () => {
    expect(compileExpression("Config.get('empty', 2)").evaluate({ Config: { get: 1 } })).toBe(2);
  });
});

describe('hostile use of the new forms', () => {
  it('a format template from data cannot reach attributes either', () => {
    const template = compileExpression('t.format(x)');
    const error = caught(() => template.evaluate({ t: '{0.__class__}', x: 1 }));
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.message).toMatch(/format fields may only be \{\}, \{0\} or \{name\}/);
    for (const t of ['{0[__proto__]}', '{0.constructor}', '{x.y}', '{0!r}']) {
      expect(() => template.evaluate({ t, x: {} })).toThrow(PipitError);
    }
    expect(template.evaluate({ t: '<{}>', x: 'ok' })).toBe('<ok>');
  });

  it('format keyword names are data, not properties', () => {
    expect(evaluateExpression("'{__proto__}'.format(__proto__=1)", {})).toBe('1');
    expect(evaluateExpression("'{constructor}'.format(constructor=2)", {})).toBe('2');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('dict methods read own data only', () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as unknown;
    expect(evaluateExpression("d.get('__proto__')", { d: parsed })).toEqual({ x: 1 });
    expect(evaluateExpression("d.get('constructor')", { d: {} })).toBeNull();
    expect(evaluateExpression("d.get('hasOwnProperty', 'no')", { d: {} })).toBe('no');
    expect(evaluateExpression('d.keys()', { d: parsed })).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('never runs a getter', () => {
    let calls = 0;
    const tricky = {
      plain: 1,
      get secret() {
        calls++;
        return 'leak';
      },
    };
    const context = { o: tricky } as unknown as ExpressionContext;
    for (const source of [
      "o.get('secret')",
      'o.values()',
      'o.items()',
      'str(o)',
      "'{}'.format(o)",
      'o.secret',
    ]) {
      expect(() => evaluateExpression(source, context), source).toThrow(/accessor/);
    }
    expect(evaluateExpression('sorted(o)', context)).toEqual(['plain', 'secret']);
    expect(calls).toBe(0);
  });

  it('methods exist only on plain data', () => {
    const fn = (): string => 'called';
    const instance = new (class Box {
      get(): string {
        return 'method';
      }
    })();
    expect(() => evaluateExpression("f.get('x')", { f: fn })).toThrow(
      /'function' object has no method 'get'/,
    );
    expect(() => evaluateExpression("b.get('x')", { b: instance })).toThrow(
      /'object' object has no method 'get'/,
    );
    expect(() => evaluateExpression('m.keys()', { m: new Map([['a', 1]]) })).toThrow(
      /no method 'keys'/,
    );
  });

  it('bounds what the new forms produce', () => {
    const big = { s: 'x'.repeat(600_000), parts: ['y'.repeat(600_000), 'z'.repeat(600_000)] };
    expect(() => evaluateExpression("s.replace('x', 'xx')", big)).toThrow(/longer than 1000000/);
    expect(() => evaluateExpression("s.replace('', '-')", big)).toThrow(/longer than 1000000/);
    expect(() => evaluateExpression("''.join(parts)", big)).toThrow(/longer than 1000000/);
    expect(() => evaluateExpression("'{}{}'.format(s, s)", big)).toThrow(/longer than 1000000/);
    expect(() => evaluateExpression("'{0:1000}' * 2000", {})).not.toThrow();
    expect(() => evaluateExpression("('{0:1000}' * 2000).format(1)", {})).toThrow(/longer than/);
    expect(() => evaluateExpression("(s + ',').split(',')", { s: ','.repeat(200_000) })).toThrow(
      /more than 100000 parts/,
    );
    expect(() => evaluateExpression('str([s, s])', big)).toThrow(/longer than 1000000/);
  });

  it('exact rounding stays fast on extreme values', () => {
    const started = Date.now();
    expect(evaluateExpression("'{:.3e}'.format(5e-324)", {})).toBe('4.941e-324');
    expect(evaluateExpression("len('{:.1000f}'.format(1e308))", {})).toBe(1310);
    expect(evaluateExpression('round(1.4e308, -308)', {})).toBe(1e308);
    expect(evaluateExpression('round(5e-324, 324)', {})).toBe(5e-324);
    expect(evaluateExpression('round(5e-324, 323)', {})).toBe(0);
    expect(evaluateExpression('round(1.234e-300, 302)', {})).toBe(1.23e-300);
    expect(() => evaluateExpression('round(1.7976931348623157e308, -308)', {})).toThrow(
      /rounded value too large to represent/,
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
