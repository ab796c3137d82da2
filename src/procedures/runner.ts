/**
 * Runs a validated procedure tree. Actions go through the injected `deps.execute` (the core's single
 * entry point); everything else (conditions, loops, variables) happens here, on a context object
 * with a null prototype so that no variable name can reach Object.prototype.
 */
import { PipitError, toPipitError } from '../core/errors.ts';
import type { ForStep, ProcedureDefinition, Step } from './dsl-types.ts';
import { FORBIDDEN_NAMES, defineOwn, isPlainObject, isTruthy, typeName } from './values.ts';

/** What the core's execute() answers for one action. */
export interface ActionResult {
  output: unknown;
  errors: string[];
}

/** What a run needs from the outside world. */
export interface RunnerDeps {
  /**
   * The core's entry point; `procedure.<name>` calls other procedures through it. `target` is the
   * instance a step names (`target:`), to run the action there.
   */
  execute(
    action: string,
    args: Record<string, unknown>,
    opts?: { target?: string },
  ): Promise<ActionResult>;
  /** Stops the run between steps and abandons a pending action. */
  signal?: AbortSignal;
  /** Variables visible before the arguments (e.g. event fields for hooks, constants). */
  variables?: Record<string, unknown>;
  /** `Config.get(key)` in expressions: a read-only view of the configuration (None without it). */
  config?: (key: string) => unknown;
  /** Cap on the iterations of one `while` step (default 10,000). */
  maxWhileIterations?: number;
  /** Iterations of one `fork` step running at the same time (default 8). */
  forkConcurrency?: number;
}

/** Default cap on `while` iterations. */
export const MAX_WHILE_ITERATIONS = 10_000;

/** Default number of `fork` iterations in flight at once. */
export const FORK_CONCURRENCY = 8;

type Context = Record<string, unknown>;
type Flow = 'next' | 'break' | 'continue' | { returned: unknown };

interface State {
  context: Context;
  /** Output of the last action (or fork) run in this frame, `undefined` before any. */
  last: unknown;
  signal: AbortSignal | undefined;
  deps: RunnerDeps;
}

function newContext(...sources: (Record<string, unknown> | undefined)[]): Context {
  const context = Object.create(null) as Context;
  for (const source of sources) {
    if (source === undefined) continue;
    // With no prototype there is no `__proto__` setter to trigger: plain assignment is safe.
    for (const key of Object.keys(source)) context[key] = source[key];
  }
  return context;
}

function abortError(signal: AbortSignal, path: string): PipitError {
  const reason: unknown = signal.reason;
  if (reason instanceof PipitError) return reason;
  const timeout = reason instanceof Error && reason.name === 'TimeoutError';
  return new PipitError(timeout ? 'TIMEOUT' : 'UNAVAILABLE', `${path}: procedure stopped`, {
    cause: reason,
  });
}

function checkAbort(state: State, path: string): void {
  if (state.signal?.aborted) throw abortError(state.signal, path);
}

/** Runs `fn`, prefixing any PipitError with the step path so the user sees where it happened. */
function at<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof PipitError) {
      throw new PipitError(err.code, `${path}: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

/** Waits for `promise`, giving up early when the signal fires (the promise is left to settle). */
async function abortable<T>(promise: Promise<T>, state: State, path: string): Promise<T> {
  const signal = state.signal;
  if (signal === undefined) return promise;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(signal, path));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

async function runAction(step: Extract<Step, { kind: 'action' }>, state: State): Promise<void> {
  const args = at(step.path, () => step.args.evaluate(state.context, state.deps));
  if (!isPlainObject(args)) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${step.path}: args must be an object, got ${typeName(args)}`,
    );
  }
  const target =
    step.target && at(step.path, () => step.target!.evaluate(state.context, state.deps));
  if (target !== null && typeof target !== 'string') {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${step.path}: target must be the device_id of an instance, got ${typeName(target)}`,
    );
  }
  let result: ActionResult;
  try {
    const call = state.deps.execute(step.action, args, target === null ? undefined : { target });
    result = await abortable(call, state, step.path);
  } catch (err) {
    if (state.signal?.aborted) throw abortError(state.signal, step.path);
    const error = toPipitError(err, 'ACTION_FAILED');
    if (!step.ignoreErrors) {
      throw new PipitError(error.code, `${step.path} (${step.action}): ${error.message}`, {
        cause: err,
      });
    }
    result = { output: null, errors: [error.message] };
  }
  const errors = Array.isArray(result.errors) ? result.errors.map(String) : [];
  if (errors.length > 0 && !step.ignoreErrors) {
    throw new PipitError(
      'ACTION_FAILED',
      `${step.path} (${step.action}) failed: ${errors.join('; ')}`,
      {
        details: { step: step.path, action: step.action, errors },
      },
    );
  }
  setOutput(state, result.output, errors);
}

function setOutput(state: State, output: unknown, errors: string[]): void {
  if (isPlainObject(output)) {
    for (const key of Object.keys(output)) {
      if (!FORBIDDEN_NAMES.has(key)) defineOwn(state.context, key, output[key]);
    }
  }
  // Last, so an output key named `output` or `errors` cannot hide the real ones.
  defineOwn(state.context, 'output', output);
  defineOwn(state.context, 'errors', errors);
  state.last = output;
}

function iterationItems(step: ForStep, state: State): unknown[] {
  const iterable = at(step.path, () => step.iterable.evaluate(state.context, state.deps));
  if (Array.isArray(iterable)) return [...(iterable as unknown[])];
  if (isPlainObject(iterable)) return Object.keys(iterable);
  throw new PipitError(
    'INVALID_ARGUMENTS',
    `${step.path}: ${step.parallel ? 'fork' : 'for'} needs a list or an object, got ${typeName(iterable)}`,
  );
}

async function runFor(step: ForStep, state: State): Promise<Flow> {
  const items = iterationItems(step, state);
  if (step.parallel) return runFork(step, items, state);
  for (const item of items) {
    checkAbort(state, step.path);
    defineOwn(state.context, step.variable, item);
    const flow = await runList(step.steps, state);
    if (flow === 'break') break;
    if (typeof flow === 'object') return flow;
  }
  return 'next';
}

async function runFork(step: ForStep, items: unknown[], state: State): Promise<Flow> {
  const controller = new AbortController();
  const signal = state.signal
    ? AbortSignal.any([state.signal, controller.signal])
    : controller.signal;
  const results: unknown[] = new Array<unknown>(items.length).fill(undefined);
  let next = 0;
  let failure: unknown = null;
  const worker = async (): Promise<void> => {
    while (next < items.length && failure === null) {
      const index = next++;
      const child: State = {
        ...state,
        context: newContext(state.context),
        last: undefined,
        signal,
      };
      defineOwn(child.context, step.variable, items[index]);
      try {
        const flow = await runList(step.steps, child);
        results[index] = typeof flow === 'object' ? flow.returned : child.last;
      } catch (err) {
        // The first failure stops the siblings; theirs would only repeat it.
        if (failure === null) failure = err;
        controller.abort();
      }
    }
  };
  const limit = Math.max(1, state.deps.forkConcurrency ?? FORK_CONCURRENCY);
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw toPipitError(failure);
  checkAbort(state, step.path);
  setOutput(state, results, []);
  return 'next';
}

async function runWhile(step: Extract<Step, { kind: 'while' }>, state: State): Promise<Flow> {
  const cap = state.deps.maxWhileIterations ?? MAX_WHILE_ITERATIONS;
  for (let count = 0; ; count++) {
    checkAbort(state, step.path);
    if (!isTruthy(at(step.path, () => step.condition.evaluate(state.context, state.deps))))
      return 'next';
    if (count >= cap) {
      throw new PipitError('ACTION_FAILED', `${step.path}: while loop exceeded ${cap} iterations`);
    }
    const flow = await runList(step.steps, state);
    if (flow === 'break') return 'next';
    if (typeof flow === 'object') return flow;
  }
}

async function runStep(step: Step, state: State): Promise<Flow> {
  switch (step.kind) {
    case 'action':
      await runAction(step, state);
      return 'next';
    case 'if':
      for (const branch of step.branches) {
        if (isTruthy(at(branch.path, () => branch.condition.evaluate(state.context, state.deps)))) {
          return runList(branch.steps, state);
        }
      }
      return step.otherwise ? runList(step.otherwise, state) : 'next';
    case 'for':
      return runFor(step, state);
    case 'while':
      return runWhile(step, state);
    case 'break':
    case 'continue':
      return step.kind;
    case 'return': {
      const value = step.value;
      return {
        returned: value
          ? at(step.path, () => value.evaluate(state.context, state.deps))
          : state.last,
      };
    }
    case 'set':
      for (const { name, value } of step.assignments) {
        defineOwn(
          state.context,
          name,
          at(`${step.path} > set ${name}`, () => value.evaluate(state.context, state.deps)),
        );
      }
      return 'next';
  }
}

/**
 * Steps run between two turns given to the event loop. Steps that do no I/O (`set`, `if`, loops)
 * only await promises already settled, which never let timers run: nested loops could hold the
 * whole service for seconds, and the signal of a hook's timeout (a timer) could not fire to stop
 * them. A turn costs a few µs; a thousand steps cost far more.
 */
const STEPS_PER_TURN = 1000;
// Counted across every run: what matters is how long the process goes without a turn.
let stepsSinceTurn = 0;

async function runList(steps: Step[], state: State): Promise<Flow> {
  for (const step of steps) {
    if (++stepsSinceTurn >= STEPS_PER_TURN) {
      stepsSinceTurn = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    checkAbort(state, step.path);
    const flow = await runStep(step, state);
    if (flow !== 'next') return flow;
  }
  return 'next';
}

/**
 * Runs a list of steps on a fresh context built from `variables` and returns the `return:` value,
 * else the last action's output (`undefined` when no action ran).
 *
 * @example
 * const steps = parseSteps(hook.then, 'event.hook.OnDoor then');
 * await runSteps(steps, { ...event }, { execute });
 */
export async function runSteps(
  steps: Step[],
  variables: Record<string, unknown>,
  deps: RunnerDeps,
): Promise<unknown> {
  const state: State = {
    context: newContext(deps.variables, variables),
    last: undefined,
    signal: deps.signal,
    deps,
  };
  const flow = await runList(steps, state);
  return typeof flow === 'object' ? flow.returned : state.last;
}

/**
 * Runs a YAML procedure. All `args` become variables; declared parameters that were not passed take
 * their declared default (required ones are checked by `execute()` before the run). Failing
 * actions stop the run with PipitError('ACTION_FAILED') naming the step, unless the
 * step has `ignore_errors: true`.
 *
 * @example
 * const proc = parseProcedure('procedure.morning(volume)', body);
 * const output = await runProcedure(proc, { volume: 40 }, { execute });
 */
export async function runProcedure(
  proc: ProcedureDefinition,
  args: Record<string, unknown>,
  deps: RunnerDeps,
): Promise<unknown> {
  const declared: Record<string, unknown> = {};
  for (const param of proc.params)
    if (!Object.hasOwn(args, param)) declared[param] = proc.defaults[param] ?? null;
  return runSteps(proc.steps, newContext(declared, args), deps);
}
