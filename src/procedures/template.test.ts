import { describe, expect, it } from 'vitest';
import { PipitError } from '../core/errors.ts';
import { compileTemplate, resolveTemplate, splitTemplate } from './template.ts';

describe('resolveTemplate', () => {
  const ctx = { volume: 30, name: 'kitchen', obj: { a: 1 }, list: [1, 2], nil: null };

  it('an exact ${expr} yields the typed value', () => {
    expect(resolveTemplate('${volume}', ctx)).toBe(30);
    expect(resolveTemplate('${obj}', ctx)).toEqual({ a: 1 });
    expect(resolveTemplate('${list}', ctx)).toEqual([1, 2]);
    expect(resolveTemplate('${nil}', ctx)).toBeNull();
    expect(resolveTemplate('${volume > 10}', ctx)).toBe(true);
  });

  it('embedded ${...} interpolates text, objects as JSON', () => {
    expect(resolveTemplate('vol ${volume}% on ${name}', ctx)).toBe('vol 30% on kitchen');
    expect(resolveTemplate('o=${obj} l=${list} n=${nil}', ctx)).toBe('o={"a":1} l=[1,2] n=null');
    expect(resolveTemplate('x${obj.missing}y', ctx)).toBe('xy');
    expect(resolveTemplate(' ${volume}', ctx)).toBe(' 30');
  });

  it('walks objects and arrays, leaving other values unchanged', () => {
    const input = { a: '${volume}', b: ['${name}', 3, true, null], c: { d: 'plain' }, e: 1.5 };
    expect(resolveTemplate(input, ctx)).toEqual({
      a: 30,
      b: ['kitchen', 3, true, null],
      c: { d: 'plain' },
      e: 1.5,
    });
    expect(resolveTemplate(42, ctx)).toBe(42);
    expect(resolveTemplate(null, ctx)).toBeNull();
    const constant = { x: [1, 'two'] };
    expect(resolveTemplate(constant, ctx)).toBe(constant);
    expect(resolveTemplate({ '${volume}': 1 }, ctx)).toEqual({ '${volume}': 1 });
  });

  it('handles braces and quotes inside expressions', () => {
    expect(resolveTemplate("${'}' + name}", ctx)).toBe('}kitchen');
    expect(resolveTemplate("${'${'}literal}", ctx)).toBe('${literal}');
    expect(resolveTemplate('${"a\\"}"}', ctx)).toBe('a"}');
  });

  it('never re-expands values that come out of the context', () => {
    const event = {
      data: '${process.exit()}',
      nested: { text: 'hi ${constructor}' },
      list: ['${volume}'],
    };
    const resolved = resolveTemplate(
      { a: '${data}', b: 'got: ${data}', c: '${nested}', d: '${list}', e: 'n=${nested.text}' },
      event,
    );
    expect(resolved).toEqual({
      a: '${process.exit()}',
      b: 'got: ${process.exit()}',
      c: { text: 'hi ${constructor}' },
      d: ['${volume}'],
      e: 'n=hi ${constructor}',
    });
  });

  it('keeps a __proto__ key as data (no prototype change)', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "${volume}"}}') as unknown;
    const out = resolveTemplate(input, ctx) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports unterminated ${ and bad expressions', () => {
    expect(() => resolveTemplate('a ${volume', ctx)).toThrow(/without a closing/);
    try {
      resolveTemplate('${process}', ctx);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PipitError);
      expect((err as PipitError).code).toBe('INVALID_ARGUMENTS');
      expect((err as PipitError).message).toMatch(/unknown variable 'process'/);
    }
  });

  it('bounds interpolated output', () => {
    const big = 'x'.repeat(400_000);
    expect(() => resolveTemplate('${s}${s}${s}', { s: big })).toThrow(/longer than 1000000/);
  });

  it('refuses absurdly deep templates without overflowing the stack', () => {
    let value: unknown = '${volume}';
    for (let i = 0; i < 5000; i++) value = [value];
    expect(() => compileTemplate(value)).toThrow(/nested deeper than 100/);
  });
});

describe('compileTemplate / splitTemplate', () => {
  it('marks constant templates', () => {
    expect(compileTemplate({ a: 'x', b: [1] }).constant).toBe(true);
    expect(compileTemplate({ a: '${x}' }).constant).toBe(false);
  });

  it('compiles once and reports syntax errors at compile time', () => {
    expect(() => compileTemplate({ a: ['${1 +}'] })).toThrow(/syntax error/);
    const t = compileTemplate('${x * 2}');
    expect(t.evaluate({ x: 2 })).toBe(4);
    expect(t.evaluate({ x: 5 })).toBe(10);
  });

  it('splits text and expressions', () => {
    const parts = splitTemplate('a${x}b${y}');
    expect(parts.map((p) => (typeof p === 'string' ? p : `<${p.source}>`))).toEqual([
      'a',
      '<x>',
      'b',
      '<y>',
    ]);
  });
});
