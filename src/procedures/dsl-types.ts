/**
 * The typed procedure tree produced by dsl.ts and walked by runner.ts. Every node carries `path`,
 * the human-readable location used in errors (`procedure.morning step 2 > if > step 1`).
 */
import type { CompiledExpression } from './expression/expression.ts';
import type { CompiledTemplate } from './template.ts';

/** `{action, args?, ignore_errors?, target?}`: one call through the core's execute(). */
export interface ActionStep {
  kind: 'action';
  path: string;
  action: string;
  /** Compiled `args`; evaluates to an object (checked at run time when written as `${...}`). */
  args: CompiledTemplate;
  ignoreErrors: boolean;
  /** Compiled `target`: the device_id of the instance of the cluster that runs the step. */
  target: CompiledTemplate | null;
}

/** `if ${...}` with any `elif ${...}` branches and an optional `else`. */
export interface IfStep {
  kind: 'if';
  path: string;
  branches: { condition: CompiledExpression; path: string; steps: Step[] }[];
  otherwise: Step[] | null;
}

/** `for x in ${...}` (sequential) or `fork x in ${...}` (parallel). */
export interface ForStep {
  kind: 'for';
  path: string;
  variable: string;
  iterable: CompiledExpression;
  parallel: boolean;
  steps: Step[];
}

/** `while ${...}`, capped at a maximum number of iterations. */
export interface WhileStep {
  kind: 'while';
  path: string;
  condition: CompiledExpression;
  steps: Step[];
}

/** Bare `break` / `continue`. */
export interface JumpStep {
  kind: 'break' | 'continue';
  path: string;
}

/** `return`, `return: value` or `return ${expr}`; `value` null means "the last output". */
export interface ReturnStep {
  kind: 'return';
  path: string;
  value: CompiledTemplate | null;
}

/** `set: {name: value, ...}`, assigned in order (later values see earlier ones). */
export interface SetStep {
  kind: 'set';
  path: string;
  assignments: { name: string; value: CompiledTemplate }[];
}

/** One step of a procedure, hook `then:` or cron `actions:` list. */
export type Step = ActionStep | IfStep | ForStep | WhileStep | JumpStep | ReturnStep | SetStep;

/** A validated YAML procedure. */
export interface ProcedureDefinition {
  /** Name without the `procedure.` prefix (`morning`, or dotted `lights.on`). */
  name: string;
  /** Declared argument names, in order (`procedure.morning(volume, device)`). */
  params: string[];
  /** Declared defaults (`procedure.morning(volume=50)`); the other parameters are required. */
  defaults: Record<string, unknown>;
  steps: Step[];
}
