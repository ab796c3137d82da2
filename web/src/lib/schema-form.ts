import { rangeLabel, typeLabel, variantsOf } from './json-schema.ts';
import type { JsonSchema } from './json-schema.ts';

/** How a parameter is edited: a text box, a number box, a select, or free JSON. */
export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

/** One parameter of an action, as the generated form shows it. */
export interface FieldModel {
  name: string;
  kind: FieldKind;
  required: boolean;
  nullable: boolean;
  typeLabel: string;
  description?: string;
  hasDefault: boolean;
  default?: unknown;
  /** Allowed values (enum kinds; booleans list true/false). */
  options?: unknown[];
  range?: string;
  /** A JSON field whose text is sent as a plain string when it is not valid JSON. */
  acceptsText: boolean;
}

/** The generated form of an action: its declared parameters, and whether it takes others. */
export interface FormModel {
  fields: FieldModel[];
  extraArgs: boolean;
}

/** What the user typed: every field as text ('' = not set), plus a JSON object of extra args. */
export interface FormValues {
  fields: Record<string, string>;
  extra: string;
}

function kindOf(variants: JsonSchema[]): { kind: FieldKind; options?: unknown[] } {
  const enums = variants.every((v) => v.enum !== undefined || v.const !== undefined);
  if (variants.length && enums) {
    const options = variants.flatMap((v) => v.enum ?? [v.const]).filter((v) => v !== null);
    return { kind: 'enum', options };
  }
  if (variants.length !== 1) return { kind: 'json' };
  switch (variants[0]!.type) {
    case 'string':
      return { kind: 'text' };
    case 'number':
      return { kind: 'number' };
    case 'integer':
      return { kind: 'integer' };
    case 'boolean':
      return { kind: 'boolean', options: [true, false] };
    default:
      return { kind: 'json' };
  }
}

/**
 * Builds the form model of an action from the JSON Schema of its parameters.
 *
 * @example
 * formFromSchema({ type: 'object', properties: { seconds: { type: 'number' } }, required: ['seconds'] })
 * // → { fields: [{ name: 'seconds', kind: 'number', required: true, … }], extraArgs: false }
 */
export function formFromSchema(params: JsonSchema | undefined, extraArgs?: boolean): FormModel {
  const required = new Set(params?.required ?? []);
  const fields = Object.entries(params?.properties ?? {}).map(([name, schema]): FieldModel => {
    const { variants, nullable } = variantsOf(schema);
    const { kind, options } = kindOf(variants);
    return {
      name,
      kind,
      required: required.has(name),
      nullable,
      typeLabel: typeLabel(schema),
      description: schema.description,
      hasDefault: 'default' in schema,
      default: schema.default,
      options,
      range: variants.length === 1 ? rangeLabel(variants[0]!) : undefined,
      acceptsText: variants.some(
        (v) =>
          v.type === 'string' ||
          (v.type === undefined && v.enum === undefined && v.const === undefined),
      ),
    };
  });
  const open = params?.additionalProperties !== undefined && params.additionalProperties !== false;
  return { fields, extraArgs: extraArgs ?? open };
}

/** The form model of a procedure: its declared arguments, any type, required unless declared with a default; extra args allowed. */
export function formFromProcedure(
  params: readonly string[],
  required: readonly string[] = [],
  defaults: Readonly<Record<string, unknown>> = {},
): FormModel {
  return formFromSchema(
    {
      type: 'object',
      properties: Object.fromEntries(
        params.map((p) => [p, Object.hasOwn(defaults, p) ? { default: defaults[p] } : {}]),
      ),
      required: params.filter((p) => required.includes(p)),
    },
    true,
  );
}

function parseField(field: FieldModel, text: string): { value?: unknown; error?: string } {
  switch (field.kind) {
    case 'text':
      return { value: text };
    case 'number':
    case 'integer': {
      const n = Number(text.trim());
      if (text.trim() === '' || !Number.isFinite(n)) return { error: 'must be a number' };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { error: 'must be an integer' };
      return { value: n };
    }
    case 'boolean':
    case 'enum':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: 'choose one of the allowed values' };
      }
    case 'json':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch (err) {
        if (field.acceptsText) return { value: text };
        return { error: `not valid JSON (${(err as Error).message})` };
      }
  }
}

/**
 * Turns what was typed into the `args` of a request. Empty fields are left out so the server
 * applies its defaults; only syntax is checked here (the server validates ranges and types).
 *
 * @example
 * argsFromForm(model, { fields: { seconds: '0.5' }, extra: '' }) // → { args: { seconds: 0.5 }, errors: {} }
 */
export function argsFromForm(
  model: FormModel,
  values: FormValues,
): { args: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  if (values.extra.trim()) {
    try {
      const extra = JSON.parse(values.extra) as unknown;
      if (typeof extra !== 'object' || extra === null || Array.isArray(extra))
        errors['*extra'] = 'must be a JSON object, e.g. {"name": "value"}';
      else Object.assign(args, extra);
    } catch (err) {
      errors['*extra'] = `not valid JSON (${(err as Error).message})`;
    }
  }
  for (const field of model.fields) {
    const text = values.fields[field.name] ?? '';
    if (text === '') {
      if (field.required && !(field.name in args)) errors[field.name] = 'is required';
      continue;
    }
    const { value, error } = parseField(field, text);
    if (error) errors[field.name] = error;
    else args[field.name] = value;
  }
  return { args, errors };
}

function fieldText(field: FieldModel, value: unknown): string {
  if (value === undefined) return '';
  if (field.kind === 'boolean' || field.kind === 'enum') return JSON.stringify(value);
  if (field.kind === 'text' && typeof value === 'string') return value;
  if ((field.kind === 'number' || field.kind === 'integer') && typeof value === 'number')
    return String(value);
  if (field.kind === 'json' && typeof value === 'string' && field.acceptsText) {
    // Keep text that would read back as JSON quoted, so it stays a string.
    try {
      JSON.parse(value);
      return JSON.stringify(value);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value);
}

/**
 * The inverse of {@link argsFromForm}: fills the form from request args (e.g. a recent run or the
 * raw JSON editor); arguments without a field go to the extra-args JSON.
 */
export function formFromArgs(model: FormModel, args: Record<string, unknown>): FormValues {
  const fields: Record<string, string> = {};
  const rest: Record<string, unknown> = { ...args };
  for (const field of model.fields) {
    fields[field.name] = fieldText(field, args[field.name]);
    delete rest[field.name];
  }
  return { fields, extra: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '' };
}
