/**
 * Parses and validates the Platypush-compatible YAML procedure DSL (already turned into JS values by
 * `yaml`) into the typed tree of dsl-types.ts. Every `${...}` is compiled here, so a bad procedure is
 * refused at config load with its step path, never half-way through a run.
 */
import { z } from 'zod';
import { PipitError } from '../core/errors.ts';
import type { IfStep, ProcedureDefinition, Step } from './dsl-types.ts';
import type { CompiledExpression } from './expression/expression.ts';
import { parseDefault, splitParams } from './procedure-params.ts';
import { compileTemplate, splitTemplate } from './template.ts';
import type { CompiledTemplate } from './template.ts';
import { FORBIDDEN_NAMES, isPlainObject } from './values.ts';

export type * from './dsl-types.ts';

/** Deepest nesting of blocks (if / for / while) inside one procedure. */
export const MAX_BLOCK_DEPTH = 32;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set([...FORBIDDEN_NAMES, 'True', 'False', 'None', 'true', 'false', 'null']);

const VariableName = z
  .string()
  .regex(IDENTIFIER, 'must be an identifier (letters, digits, _)')
  .refine((name) => !RESERVED.has(name), 'is a reserved name');

/**
 * `{action: "plugin.action", args?: {...} | "${...}", ignore_errors?: bool, target?: device_id}`;
 * `target` (text, or `${...}`) runs the step on that instance of the cluster.
 */
export const ActionStepSchema = z.strictObject({
  action: z
    .string()
    .regex(/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)+$/, 'must look like "plugin.action"'),
  args: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
  ignore_errors: z.boolean().optional(),
  target: z
    .string()
    .min(1, 'must name an instance (its device_id)')
    .max(128, 'is longer than 128 characters')
    .optional(),
});
export type ActionStepInput = z.output<typeof ActionStepSchema>;

/** `{set: {name: value, ...}}` */
export const SetStepSchema = z.strictObject({
  set: z.record(VariableName, z.unknown()).refine((v) => Object.keys(v).length > 0, 'is empty'),
});
export type SetStepInput = z.output<typeof SetStepSchema>;

/** `{return: value}` */
export const ReturnStepSchema = z.strictObject({ return: z.unknown() });
export type ReturnStepInput = z.output<typeof ReturnStepSchema>;

/** A block body: a list of steps (a single step object is accepted as a list of one). */
export const StepListSchema = z.union([
  z.array(z.unknown()),
  z.record(z.string(), z.unknown()).transform((step) => [step]),
]);
export type StepListInput = z.output<typeof StepListSchema>;

/** `procedure.<name>` or `procedure.<name>(arg, ...)`; `procedure.sync.<name>` is accepted too. */
export const ProcedureKeySchema = z
  .string()
  .regex(
    /^procedure\.(?:sync\.)?([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*(?:\(([^()]*)\))?$/,
    'expected "procedure.<name>" or "procedure.<name>(arg1, arg2)"',
  );

interface Scope {
  /** Where break/continue may appear: none, a sequential loop, or directly in a fork body. */
  loop: 'none' | 'loop' | 'fork';
  depth: number;
}

function invalid(path: string, what: string): never {
  throw new PipitError('CONFIG_INVALID', `${path}: ${what}`);
}

function check<S extends z.ZodType>(schema: S, value: unknown, path: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` "${issue.path.map(String).join('.')}"` : '';
  // A bad record key nests the useful message one level down.
  const inner = issue?.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
  return invalid(path + where, inner ?? issue?.message ?? 'invalid');
}

/** Compiles, turning expression syntax errors into CONFIG_INVALID errors with the step path. */
function compileAt<T>(path: string, compile: () => T): T {
  try {
    return compile();
  } catch (err) {
    if (err instanceof PipitError) invalid(path, err.message);
    throw err;
  }
}

/** `${expr}` exactly (one expression, nothing around it) → the compiled expression. */
function singleExpression(text: string, path: string, expected: string): CompiledExpression {
  const parts = compileAt(path, () => splitTemplate(text.trim()));
  const only = parts[0];
  if (parts.length !== 1 || only === undefined || typeof only === 'string') {
    invalid(path, `expected ${expected}, got ${JSON.stringify(text)}`);
  }
  return only;
}

const BLOCK_KEY =
  /^(if|elif|while)\s+(\$\{[\s\S]*\})\s*$|^(for|fork)\s+(\S+)\s+in\s+(\$\{[\s\S]*\})\s*$/;

function parseString(step: string, path: string, scope: Scope): Step {
  const text = step.trim();
  if (text === 'break' || text === 'continue') {
    if (scope.loop === 'none') invalid(path, `'${text}' outside a for/while loop`);
    if (text === 'break' && scope.loop === 'fork') {
      invalid(path, "'break' inside fork (iterations run in parallel); use continue or return");
    }
    return { kind: text, path };
  }
  if (text === 'return') return { kind: 'return', path, value: null };
  if (/^return\s+\$\{/.test(text)) {
    const source = text.slice('return'.length).trim();
    singleExpression(source, path, 'return ${expression}');
    return { kind: 'return', path, value: compileTemplate(source) };
  }
  return invalid(path, `unknown step ${JSON.stringify(step)} (expected break, continue or return)`);
}

function parseBlock(
  key: string,
  body: unknown,
  path: string,
  scope: Scope,
): Step | { kind: 'elif'; condition: CompiledExpression; steps: Step[] } {
  const match = BLOCK_KEY.exec(key.trim());
  if (match === null) {
    return invalid(
      path,
      `unknown step key ${JSON.stringify(key)} (expected action, set, return, ` +
        '"if ${...}", "elif ${...}", else, "for x in ${...}", "fork x in ${...}" or "while ${...}")',
    );
  }
  const [, condKind, condText, loopKind, variable, iterText] = match;
  if (condKind !== undefined && condText !== undefined) {
    const condition = singleExpression(condText, path, `${condKind} \${expression}`);
    const inner = condKind === 'while' ? { ...scope, loop: 'loop' as const } : scope;
    const steps = parseList(body, `${path} > ${condKind}`, inner);
    if (condKind === 'while') return { kind: 'while', path, condition, steps };
    if (condKind === 'elif') return { kind: 'elif', condition, steps };
    return { kind: 'if', path, branches: [{ condition, path, steps }], otherwise: null };
  }
  const name = check(VariableName, variable, `${path} loop variable`);
  const iterable = singleExpression(iterText ?? '', path, `${loopKind} x in \${expression}`);
  const parallel = loopKind === 'fork';
  const loop = parallel ? ('fork' as const) : ('loop' as const);
  const steps = parseList(body, `${path} > ${loopKind}`, { ...scope, loop });
  return { kind: 'for', path, variable: name, iterable, parallel, steps };
}

function parseObject(
  step: Record<string, unknown>,
  path: string,
  scope: Scope,
):
  | Step
  | { kind: 'elif'; condition: CompiledExpression; steps: Step[] }
  | { kind: 'else'; steps: Step[] } {
  if (Object.hasOwn(step, 'action')) {
    const input = check(ActionStepSchema, step, path);
    // Templates are compiled from the raw value: zod's record output re-creates objects with plain
    // assignment, which would turn a `__proto__` key into a prototype instead of keeping it as data.
    const rawArgs = step.args ?? {};
    const args: CompiledTemplate = compileAt(path, () => compileTemplate(rawArgs));
    if (typeof rawArgs === 'string') singleExpression(rawArgs, path, 'args: ${expression}');
    const target = input.target;
    return {
      kind: 'action',
      path,
      action: input.action,
      args,
      ignoreErrors: input.ignore_errors ?? false,
      target: target === undefined ? null : compileAt(path, () => compileTemplate(target)),
    };
  }
  if (Object.hasOwn(step, 'set')) {
    const raw = step.set;
    // Keys are checked on the raw object first: zod's record silently drops `__proto__`.
    if (isPlainObject(raw)) {
      for (const name of Object.keys(raw)) check(VariableName, name, `${path} "set.${name}"`);
    }
    check(SetStepSchema, step, path);
    const values = raw as Record<string, unknown>;
    const assignments = Object.keys(values).map((name) => ({
      name,
      value: compileAt(`${path} > set ${name}`, () => compileTemplate(values[name])),
    }));
    return { kind: 'set', path, assignments };
  }
  if (Object.hasOwn(step, 'return')) {
    check(ReturnStepSchema, step, path);
    return { kind: 'return', path, value: compileAt(path, () => compileTemplate(step.return)) };
  }
  const keys = Object.keys(step);
  const key = keys[0];
  if (keys.length !== 1 || key === undefined) {
    return invalid(
      path,
      `a block step has exactly one key, got ${keys.length} (${keys.join(', ')})`,
    );
  }
  if (key.trim() === 'else')
    return { kind: 'else', steps: parseList(step[key], `${path} > else`, scope) };
  return parseBlock(key, step[key], path, scope);
}

function parseList(body: unknown, path: string, scope: Scope): Step[] {
  if (scope.depth >= MAX_BLOCK_DEPTH) invalid(path, `blocks nested deeper than ${MAX_BLOCK_DEPTH}`);
  const items = check(StepListSchema, body, path);
  const inner: Scope = { ...scope, depth: scope.depth + 1 };
  const steps: Step[] = [];
  // The if that a following elif/else attaches to; cleared once an else closes it.
  let openIf: IfStep | null = null;
  items.forEach((raw, index) => {
    const stepPath = `${path}${scope.depth === 0 ? '' : ' >'} step ${index + 1}`;
    let parsed;
    if (typeof raw === 'string') parsed = parseString(raw, stepPath, scope);
    else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      parsed = parseObject(raw as Record<string, unknown>, stepPath, inner);
    } else {
      invalid(
        stepPath,
        `expected a step (an object or break/continue/return), got ${JSON.stringify(raw)}`,
      );
    }
    if (parsed.kind === 'elif' || parsed.kind === 'else') {
      if (openIf === null) invalid(stepPath, `'${parsed.kind}' without a preceding 'if'`);
      if (parsed.kind === 'else') {
        openIf.otherwise = parsed.steps;
        openIf = null;
      } else
        openIf.branches.push({ condition: parsed.condition, path: stepPath, steps: parsed.steps });
      return;
    }
    openIf = parsed.kind === 'if' ? parsed : null;
    steps.push(parsed);
  });
  return steps;
}

/**
 * Validates a list of steps (a procedure body, a hook's `then:`, a cron's `actions:`). `where`
 * prefixes every error path. Throws PipitError('CONFIG_INVALID').
 *
 * @example
 * parseSteps([{ action: 'utils.sleep', args: { seconds: 1 } }], 'cron.Nightly actions');
 */
export function parseSteps(body: unknown, where: string): Step[] {
  return parseList(body, where, { loop: 'none', depth: 0 });
}

/**
 * Splits a procedure config key into name and declared parameters.
 *
 * @example
 * parseProcedureKey('procedure.morning(volume, device=null)');
 * // { name: 'morning', params: ['volume', 'device'], defaults: { device: null } }
 * parseProcedureKey('procedure.morning'); // { name: 'morning', params: [], defaults: {} }
 */
export function parseProcedureKey(key: string): {
  name: string;
  params: string[];
  defaults: Record<string, unknown>;
} {
  if (typeof key === 'string' && /^procedure\.async\./.test(key)) {
    invalid(
      key,
      'async procedures are not supported; run steps in parallel with "fork x in ${...}"',
    );
  }
  const text = check(ProcedureKeySchema, typeof key === 'string' ? key.trim() : key, String(key));
  const [, name = '', list] = /^procedure\.(?:sync\.)?([^\s(]+)\s*(?:\((.*)\))?$/.exec(text) ?? [];
  const declared =
    list === undefined || list.trim() === '' ? [] : splitParams(list).map((p) => p.trim());
  const params: string[] = [];
  // `name=value` declares a default (a YAML scalar: 50, "text", true, null); without one the
  // argument must be passed.
  const defaults: Record<string, unknown> = {};
  for (const entry of declared) {
    const eq = entry.indexOf('=');
    const param = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    check(VariableName, param, `${key} parameter ${JSON.stringify(param)}`);
    if (params.includes(param)) invalid(key, `parameter "${param}" is declared twice`);
    params.push(param);
    if (eq >= 0) defaults[param] = parseDefault(key, param, entry.slice(eq + 1).trim());
  }
  return { name, params, defaults };
}

/**
 * Validates a whole YAML procedure: its config key and its body.
 *
 * @example
 * const proc = parseProcedure('procedure.morning(volume)', [
 *   { action: 'music.spotify.set_volume', args: { volume: '${volume}' } },
 * ]);
 * proc.params; // ['volume']
 */
export function parseProcedure(key: string, body: unknown): ProcedureDefinition {
  const { name, params, defaults } = parseProcedureKey(key);
  return { name, params, defaults, steps: parseSteps(body, `procedure.${name}`) };
}
