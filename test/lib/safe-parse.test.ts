import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { safeParse } from '../../src/lib/safe-parse.ts';

// A value on which zod's length checks throw instead of reporting an issue: its `length` cannot
// be turned into a number (no prototype, so no valueOf or toString).
const hostile = () => ({ length: Object.create(null) as object });

describe('safeParse', () => {
  it('reports what zod reports when zod does not throw', () => {
    const result = safeParse(z.object({ name: z.string().max(3) }), { name: 'abcd' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'too_big', path: ['name'] });
    expect(safeParse(z.object({ name: z.string() }), { name: 'ok' })).toEqual({
      success: true,
      data: { name: 'ok' },
    });
  });

  it('turns a throw into one issue at the field that holds the hostile value', () => {
    const schema = z.object({ ok: z.string(), name: z.string().max(8), id: z.string().max(8) });
    expect(() => schema.safeParse({ ok: 'x', name: 'n', id: hostile() })).toThrow();
    const result = safeParse(schema, { ok: 'x', name: 'n', id: hostile() });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'custom',
        path: ['id'],
        message: expect.stringMatching(/^a field holds a value of the wrong type/),
      }),
    ]);
  });

  it('follows nested objects through optional and default wrappers', () => {
    const schema = z.object({
      args: z.object({ inner: z.object({ name: z.string().max(8) }).optional() }).default({}),
    });
    const result = safeParse(schema, { args: { inner: { name: hostile() } } });
    expect(result.error?.issues[0]?.path).toEqual(['args', 'inner', 'name']);
  });

  it('names a field whose getter throws', () => {
    const value = Object.defineProperty({}, 'name', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const result = safeParse(z.object({ name: z.string() }), value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['name']);
  });

  it('finds the field in the union option that throws', () => {
    const schema = z.discriminatedUnion('type', [
      z.object({ type: z.literal('a'), text: z.string().max(4) }),
      z.object({ type: z.literal('b'), list: z.array(z.string()).max(4) }),
    ]);
    const result = safeParse(schema, { type: 'b', list: hostile() });
    expect(result.error?.issues[0]?.path).toEqual(['list']);
  });

  it('reports the whole value when the schema is not an object', () => {
    const result = safeParse(z.string().max(3), hostile());
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'custom', path: [] });
  });
});
