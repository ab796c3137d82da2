// Dict and list literals, dict() and list() inside `${...}` (Platypush's `args.get('headers', {})`),
// and templates whose braces do not balance.
import { describe, expect, it } from 'vitest';
import { isPipitError } from '../../../src/core/errors.ts';
import { compileTemplate } from '../../../src/procedures/template.ts';
import { parseSteps } from '../../../src/procedures/dsl.ts';

const run = (template: string, context: Record<string, unknown> = {}) =>
  compileTemplate(template).evaluate(context);

const refusal = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
};

describe('dict and list literals', () => {
  it("reads Platypush's args.get('headers', {}).get('X-Token') with and without headers", () => {
    const source = "${args.get('headers', {}).get('X-Token')}";
    expect(run(source, { args: { headers: { 'X-Token': 'SECRET' } } })).toBe('SECRET');
    expect(run(source, { args: {} })).toBeNull();
  });

  it('builds nested dicts and lists, with a trailing comma and computed keys', () => {
    expect(run("${{'a': 1, 'b': [1, {'c': x}], k: 'v', 2: None,}}", { x: 'y', k: 'key' })).toEqual({
      a: 1,
      b: [1, { c: 'y' }],
      key: 'v',
      '2': null,
    });
    expect(run('${{}}')).toEqual({});
    expect(run("${len({'a': 1, 'b': 2})}")).toBe(2);
  });

  it('takes a dict literal in an if step of a procedure', () => {
    expect(() =>
      parseSteps(
        [
          {
            "if ${args.get('headers', {}).get('X-Token') == 'SECRET'}": [{ action: 'utils.echo' }],
          },
        ],
        'procedure.x',
      ),
    ).not.toThrow();
  });

  it('dict() and list() work as in Python', () => {
    expect(run('${dict()}')).toEqual({});
    expect(run('${list()}')).toEqual([]);
    expect(run('${dict(d)}', { d: { a: 1 } })).toEqual({ a: 1 });
    expect(run("${dict([['a', 1], ['b', 2]])}")).toEqual({ a: 1, b: 2 });
    expect(run("${list('ab')}")).toEqual(['a', 'b']);
    expect(run('${list(d)}', { d: { a: 1, b: 2 } })).toEqual(['a', 'b']);
    expect(run('${list(d)}', { d: [1, 2] })).toEqual([1, 2]);
  });

  it('dict(d) is a copy: changing it leaves d alone', () => {
    const d = { a: 1 };
    const copy = run('${dict(d)}', { d }) as Record<string, unknown>;
    expect(copy).not.toBe(d);
  });

  it.each([
    ["${{'__proto__': 1}}", /'__proto__' is not accessible/],
    ["${{'constructor': 1}}", /'constructor' is not accessible/],
    ['${{[1]: 2}}', /dict keys must be strings or numbers, got array/],
    ["${dict([['prototype', 1]])}", /'prototype' is not accessible/],
    ["${dict([['a']])}", /element 0 is not a \[key, value\] pair/],
    ['${dict(1)}', /dict\(\) needs a dict or a list of \[key, value\] pairs, not int/],
    ['${list(1)}', /list\(\): 'int' object is not iterable/],
    ['${dict(1, 2)}', /dict\(\) takes 0 to 1 argument\(s\), got 2/],
  ])('refuses %s clearly', (source, pattern) => {
    const error = refusal(() => run(source));
    expect(isPipitError(error)).toBe(true);
    expect(error.message).toMatch(pattern);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('unbalanced braces', () => {
  it.each([
    ["${args.get('headers', {}).get('X-Token') == 'SECRET'", /'\$\{' without a closing '\}'/],
    ["${ {'a': 1 }", /'\$\{' without a closing '\}'/],
    ["${{'a': 1}", /'\$\{' without a closing '\}'/],
    ["${{'a': 1]}", /'\$\{' without a closing '\}'/],
    ["${{'a': 1]}}", /syntax error at character 8: unexpected "\]"/],
    ["${['a': 1}]}", /syntax error|unexpected/],
    ['${{1, 2}}', /set literals \(\{a, b\}\) are not supported/],
    ['${}', /./],
  ])('refuses %s with a clear message', (template, pattern) => {
    const error = refusal(() => compileTemplate(template));
    expect(isPipitError(error)).toBe(true);
    expect(error.message).toMatch(pattern);
  });

  it('a brace inside a string does not count, and text after the closing brace is literal', () => {
    expect(run("${'}'}")).toBe('}');
    expect(run("${ {'a': '{'}['a'] }}")).toBe('{}');
  });

  it('random mixes of braces, quotes and colons either compile or fail with a PipitError', () => {
    // A fixed-seed generator: the same strings on every run.
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ['${', '{', '}', '[', ']', "'", '"', ':', ',', 'a', '1', ' ', '(', ')', '\\'];
    for (let n = 0; n < 3000; n++) {
      let text = '';
      const length = 1 + Math.floor(random() * 16);
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      try {
        compileTemplate(text).evaluate({ a: { a: 1 } });
      } catch (err) {
        if (!isPipitError(err))
          throw new Error(`${JSON.stringify(text)}: ${String(err)}`, { cause: err });
      }
    }
  });
});
