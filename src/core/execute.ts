import type { ActionContext } from './action.ts';
import type { Logger } from './logger.ts';
import type { z } from 'zod';
import { PipitError, toPipitError } from './errors.ts';
import type { ErrorCode } from './errors.ts';
import { buildResponse, parseRequestMessage, requestIdOf } from './messages.ts';
import type { Request } from './messages.ts';
import type { ResponseMessage } from './messages.ts';
import type { Registry } from './registry.ts';
import { RunRecord, runScope } from './runs.ts';
import type { Caller, RunObservers, Trigger } from './runs.ts';
import type { Services } from './services.ts';
import { validateArgs } from './validate.ts';

// Callers without a signal share one that never fires, instead of a new AbortController each call.
const NEVER_ABORTED = new AbortController().signal;

/** How deep procedures may call procedures before the call is refused. */
export const MAX_PROCEDURE_DEPTH = 32;

/** Who is calling and how, for one `execute()` call. */
export interface ExecuteOptions {
  /**
   * The transport the call came over and its response goes back to: `http`, `ws`, `cli`,
   * `library`, `cron`, `hook`... (the run history's `transport`; `runs.list` filters on it).
   */
  transport: string;
  signal?: AbortSignal;
  /** Procedure nesting depth (0 for a transport's call). */
  depth?: number;
  /** Who asked (recorded in the run history); a step inherits its procedure's, hook's or cron's. */
  caller?: Caller;
  /** The hook, cron or event behind the call, when not inherited from the enclosing run. */
  trigger?: Trigger;
  /** The run this call replays (`runs.replay`). */
  replayOf?: string;
  /** The id to record the run under (default: a new one), for a caller that must point at it. */
  runId?: string;
}

/**
 * The outcome of one call: the response message to send, and the error behind it when it failed.
 * `error.code` tells the transport its status (ACTION_FAILED is still a 200 on HTTP).
 */
export interface ExecuteResult {
  message: ResponseMessage;
  error?: PipitError;
}

/**
 * The single entry point every transport calls. `execute.now()` is the same call without the
 * promise when the action finished synchronously, for transports that must know whether a request
 * is still running (the WebSocket in-flight cap counts only those that are).
 */
export interface Execute {
  (request: unknown, opts: ExecuteOptions): Promise<ExecuteResult>;
  now(request: unknown, opts: ExecuteOptions): ExecuteResult | Promise<ExecuteResult>;
}

function parseRequest(raw: unknown): Request {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new PipitError(
      'BAD_REQUEST',
      'the request must be a JSON object like {"type": "request", "action": "utils.echo", "args": {}}',
    );
  }
  const parsed = parseRequestMessage(raw as Record<string, unknown>);
  if (!parsed.success) {
    throw new PipitError('BAD_REQUEST', parsed.error.issues.map(requestIssueText).join('; '), {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

// Request's own messages name their field; any other (a value that made zod throw) gets its path.
function requestIssueText(issue: z.core.$ZodIssue): string {
  return issue.message.startsWith('field ') || !issue.path.length
    ? issue.message
    : `field "${issue.path.join('.')}": ${issue.message}`;
}

// The transports of a procedure's, hook's or cron's steps (procedures/executor.ts).
const STEP_TARGETS: ReadonlySet<string> = new Set(['procedure', 'hook', 'cron']);

/**
 * Creates `execute()`: validates the request message, resolves the action or procedure, validates
 * and coerces its arguments, runs it and wraps the outcome in a response message.
 *
 * @example
 * const execute = createExecute({ registry, deviceId: 'pi', log, services: () => services });
 * const { message } = await execute({ type: 'request', action: 'utils.echo', args: { text: 'hi' } }, { transport: 'cli' });
 */
export function createExecute(deps: {
  registry: Registry;
  deviceId: string;
  log: Logger;
  services: () => Services;
  /** Observers of finished runs (history, metrics); nothing is recorded while it has none. */
  runs?: RunObservers;
  /**
   * Runs a request whose `target` is another instance there (the cluster, src/cluster/); without
   * it such a request is NOT_FOUND.
   */
  remote?: (request: Request, opts: ExecuteOptions) => Promise<ExecuteResult>;
}): Execute {
  const { registry, deviceId, log, runs } = deps;

  const respond = (
    id: string | undefined,
    target: string,
    output: unknown,
    error?: PipitError,
  ): ExecuteResult => {
    const message = buildResponse({
      id,
      target,
      origin: deviceId,
      output,
      errors: error ? error.message.split('\n') : [],
    });
    return error ? { message, error } : { message };
  };

  const failed = (
    id: string | undefined,
    target: string,
    actionName: string | undefined,
    err: unknown,
  ): ExecuteResult => {
    const error = toPipitError(err);
    const scope = runScope.getStore();
    if (scope) scope.failedStep = { action: actionName ?? '?', errors: error.message.split('\n') };
    // One failure is one line: a step's failure is its procedure's, hook's or cron's, which that
    // run logs (and the run history keeps the step); the error object (stack, cause, details), which
    // a terminal shows over several lines, is added where someone is debugging.
    const step = scope !== undefined || STEP_TARGETS.has(target);
    const level =
      error.code === 'INTERNAL' || (error.code === 'ACTION_FAILED' && !step) ? 'warn' : 'debug';
    if (log.isLevelEnabled(level))
      log[level](
        {
          action: actionName,
          code: error.code,
          ...(log.isLevelEnabled('debug') ? { err: error.cause ?? error } : {}),
        },
        error.message,
      );
    return respond(id, target, undefined, error);
  };

  // Not an async function: a synchronous action (echo, variable.get...) is answered without the
  // suspensions of `await` (they showed in /execute's profile).
  const now: Execute['now'] = (raw, opts) => {
    const record = runs?.enabled ? recordOf(runs, opts) : undefined;
    const started = record ? record.started : log.isLevelEnabled('debug') ? performance.now() : -1;
    let id = requestIdOf(raw);
    let actionName: string | undefined;
    let output: unknown;
    try {
      const request = parseRequest(raw);
      id = request.id;
      actionName = request.action;
      if (record) {
        record.name = request.action;
        if (request.args) record.args = request.args;
      }
      if (request.target !== undefined && request.target !== deviceId) {
        if (!deps.remote)
          throw new PipitError(
            'NOT_FOUND',
            `no instance named "${request.target}" (this one is "${deviceId}"); omit "target" to run here`,
          );
        const routed = deps
          .remote(request, opts)
          .catch((err: unknown) => failed(id, opts.transport, actionName, err));
        if (!record) return routed;
        return routed.then((result) => finish(record, result));
      }
      const resolved = registry.resolve(request.action);
      const args = request.args ?? {};
      const signal = opts.signal ?? NEVER_ABORTED;
      if (resolved.kind === 'procedure') {
        const missing = resolved.procedure.required?.filter((p) => !Object.hasOwn(args, p));
        if (missing?.length) {
          const { name, params } = resolved.procedure;
          throw new PipitError(
            'INVALID_ARGUMENTS',
            `procedure.${name}: missing argument${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')} (declared as procedure.${name}(${params.join(', ')})): pass ${missing.length > 1 ? 'them' : 'it'}, or declare a default such as ${missing[0]}=null`,
          );
        }
        const depth = (opts.depth ?? 0) + 1;
        if (depth > MAX_PROCEDURE_DEPTH) {
          throw new PipitError(
            'ACTION_FAILED',
            `${request.action}: procedures nest deeper than ${MAX_PROCEDURE_DEPTH} calls; is one calling itself?`,
          );
        }
        const run = () => resolved.procedure.run(args, { signal, depth });
        if (record) record.kind = 'procedure';
        output = runGuarded(record ? () => runScope.run(record.scope(), run) : run);
      } else {
        if (record) record.params = resolved.action.params;
        const valid = validateArgs(resolved.name, resolved.action, args);
        const ctx = new RunContext(
          resolved.plugin.state,
          deps.services(),
          signal,
          log,
          resolved.name,
          record ? record.caller : (opts.caller ?? runScope.getStore()?.caller),
        );
        output = runGuarded(() => resolved.action.run(valid, ctx));
      }
    } catch (err) {
      const result = failed(id, opts.transport, actionName, err);
      return record ? finish(record, result) : result;
    }
    const succeeded = (value: unknown): ExecuteResult => {
      if (started >= 0)
        log.debug({ action: actionName, ms: performance.now() - started }, 'executed');
      const result = respond(id, opts.transport, value);
      return record ? finish(record, result, value) : result;
    };
    return output instanceof Promise
      ? output.then(succeeded, (err: unknown) => {
          const result = failed(id, opts.transport, actionName, err);
          return record ? finish(record, result) : result;
        })
      : succeeded(output);
  };
  const execute = ((raw, opts) => {
    const result = now(raw, opts);
    return result instanceof Promise ? result : Promise.resolve(result);
  }) as Execute;
  execute.now = now;
  return execute;
}

function recordOf(runs: RunObservers, opts: ExecuteOptions): RunRecord {
  return new RunRecord(runs, {
    transport: opts.transport,
    caller: opts.caller,
    trigger: opts.trigger,
    replay_of: opts.replayOf,
    id: opts.runId,
  });
}

function finish(record: RunRecord, result: ExecuteResult, output?: unknown): ExecuteResult {
  const { error } = result;
  record.finish(error ? error.code : null, result.message.response.errors, output);
  return result;
}

/**
 * What an action's `run` gets besides its arguments. A class rather than an object literal with a
 * getter: one fixed shape, and the action's logger is made on first use (most actions never log,
 * and a pino child costs more than `utils.echo` itself).
 */
class RunContext implements ActionContext {
  readonly state: unknown;
  readonly services: Services;
  readonly signal: AbortSignal;
  readonly caller: Caller | undefined;
  readonly #parentLog: Logger;
  readonly #action: string;
  #log: Logger | undefined;

  constructor(
    state: unknown,
    services: Services,
    signal: AbortSignal,
    log: Logger,
    action: string,
    caller: Caller | undefined,
  ) {
    this.state = state;
    this.caller = caller;
    this.services = services;
    this.signal = signal;
    this.#parentLog = log;
    this.#action = action;
  }

  get log(): Logger {
    return (this.#log ??= this.#parentLog.child({ action: this.#action }));
  }
}

// Errors thrown while an action or procedure runs are the action's failure (HTTP 200 with errors),
// not a failure of the request; their message is the action's own.
// A synchronous action's result is used as is: no promise is made for it (hot path).
function runGuarded(fn: () => unknown): unknown {
  let result: unknown;
  try {
    result = fn();
  } catch (err) {
    throw asActionFailure(err);
  }
  return result instanceof Promise
    ? result.catch((err: unknown) => Promise.reject(asActionFailure(err)))
    : result;
}

const PASSED_THROUGH: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ACTION_FAILED',
  'CONFLICT',
  'UNAVAILABLE',
]);

function asActionFailure(err: unknown): PipitError {
  // A conflict refuses the request itself, with nothing changed: the caller's copy is stale (an
  // automation saved since it was opened) or the thing is busy (409). UNAVAILABLE says the action
  // could not run at all, as what it drives is not connected (a broker, a bridge): 503, to retry.
  if (err instanceof PipitError && PASSED_THROUGH.has(err.code)) return err;
  const message = err instanceof Error ? err.message : String(err);
  const code = err instanceof PipitError ? err.code : undefined;
  return new PipitError('ACTION_FAILED', message || 'the action failed without a message', {
    cause: err,
    details: code ? { reason: code } : {},
  });
}
