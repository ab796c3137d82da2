import { describe, expect, it } from 'vitest';
import { typeLabel } from '../../web/src/lib/json-schema.ts';
import {
  argsFromForm,
  formFromArgs,
  formFromProcedure,
  formFromSchema,
} from '../../web/src/lib/schema-form.ts';

// Shapes as zod's toJSONSchema writes them for the real actions (utils.sleep, variable.get) and
// for the Spotify ones that arrive later.
const SCHEMA = {
  type: 'object',
  properties: {
    seconds: { type: 'number', minimum: 0, maximum: 3600, description: 'how long to wait' },
    limit: { type: 'integer', default: 50, minimum: 1, maximum: 50 },
    type: { type: 'string', enum: ['track', 'album'], default: 'track' },
    public: { type: 'boolean', default: false },
    device: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'device id or name' },
    resources: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    query: { type: 'object', additionalProperties: {} },
    default: { description: 'value returned when the variable is not set' },
  },
  required: ['seconds'],
  additionalProperties: false,
};

describe('JSON Schema → form model', () => {
  const model = formFromSchema(SCHEMA);
  const field = (name: string) => model.fields.find((f) => f.name === name)!;

  it('describes each parameter: kind, type, default, allowed values, range, docs', () => {
    expect(model.extraArgs).toBe(false);
    expect(field('seconds')).toMatchObject({
      kind: 'number',
      required: true,
      typeLabel: 'number',
      range: '0 – 3600',
      description: 'how long to wait',
      hasDefault: false,
    });
    expect(field('limit')).toMatchObject({
      kind: 'integer',
      default: 50,
      hasDefault: true,
      range: '1 – 50',
    });
    expect(field('type')).toMatchObject({
      kind: 'enum',
      options: ['track', 'album'],
      typeLabel: '"track" | "album"',
    });
    expect(field('public')).toMatchObject({
      kind: 'boolean',
      options: [true, false],
      default: false,
    });
    expect(field('device')).toMatchObject({
      kind: 'text',
      nullable: true,
      typeLabel: 'string | null',
    });
    expect(field('resources')).toMatchObject({
      kind: 'json',
      acceptsText: true,
      typeLabel: 'string | array of string',
    });
    expect(field('query')).toMatchObject({ kind: 'json', acceptsText: false, typeLabel: 'object' });
    expect(field('default')).toMatchObject({ kind: 'json', acceptsText: true, typeLabel: 'any' });
  });

  it('reads extra-args actions and procedures as open forms', () => {
    expect(
      formFromSchema({ type: 'object', properties: {}, additionalProperties: {} }).extraArgs,
    ).toBe(true);
    expect(formFromSchema({ type: 'object', properties: {} }, true).extraArgs).toBe(true);
    const proc = formFromProcedure(['volume', 'room']);
    expect(proc.extraArgs).toBe(true);
    expect(proc.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['volume', 'json', false],
      ['room', 'json', false],
    ]);
  });

  it('turns typed text into typed args, leaving empty fields to the server defaults', () => {
    const { args, errors } = argsFromForm(model, {
      fields: {
        seconds: '0.5',
        limit: '',
        type: '"album"',
        public: 'true',
        device: 'kitchen',
        resources: '["a", "b"]',
        default: 'plain text',
      },
      extra: '',
    });
    expect(errors).toEqual({});
    expect(args).toEqual({
      seconds: 0.5,
      type: 'album',
      public: true,
      device: 'kitchen',
      resources: ['a', 'b'],
      default: 'plain text',
    });
  });

  it('reports syntax errors per field and a missing required one', () => {
    expect(
      argsFromForm(model, { fields: { seconds: 'soon', limit: '2.5', query: '{oops' }, extra: '' })
        .errors,
    ).toEqual({
      seconds: 'must be a number',
      limit: 'must be an integer',
      query: expect.stringMatching(/^not valid JSON/),
    });
    expect(argsFromForm(model, { fields: {}, extra: '' }).errors).toEqual({
      seconds: 'is required',
    });
  });

  it('merges the extra-args JSON object and rejects anything else', () => {
    const open = formFromSchema({ type: 'object', properties: {}, additionalProperties: {} });
    expect(argsFromForm(open, { fields: {}, extra: '{"colour":"blue"}' }).args).toEqual({
      colour: 'blue',
    });
    expect(argsFromForm(open, { fields: {}, extra: '[1]' }).errors['*extra']).toMatch(
      /JSON object/,
    );
    expect(argsFromForm(open, { fields: {}, extra: '{' }).errors['*extra']).toMatch(
      /not valid JSON/,
    );
  });

  it('round-trips args through the form (recent runs, raw-JSON mode)', () => {
    const args = {
      seconds: 2,
      type: 'album',
      public: false,
      device: 'kitchen',
      resources: 'spotify:track:1',
      default: '42',
      unknown: 1,
    };
    const values = formFromArgs(model, args);
    expect(values.fields.default).toBe('"42"'); // still the string "42", not the number
    expect(JSON.parse(values.extra)).toEqual({ unknown: 1 });
    expect(argsFromForm(model, values).args).toEqual(args);
  });
});

describe('typeLabel', () => {
  it('names nested and union types', () => {
    expect(typeLabel({ type: 'array', items: { type: 'integer' } })).toBe('array of integer');
    expect(typeLabel({ type: ['string', 'null'] })).toBe('string | null');
    expect(typeLabel({ const: 'x' })).toBe('"x"');
    expect(typeLabel(undefined)).toBe('any');
  });
});
