import { AsyncLocalStorage } from 'node:async_hooks';

/** Who asked for a run: the authenticated user and how (never the token itself). */
export interface Caller {
  user: string;
  /** `token`, `session`, `basic`, or `local` (CLI over the control socket, `run()` in-process). */
  via: string;
  /** The API token's id when `via` is `token` (its name is looked up when the run is shown). */
  token_id?: string;
}

/**
 * The caller of the CLI and control socket: whoever can open the 0600 socket, i.e. the operator.
 *
 * @example
 * await service.execute(request, { target: 'cli', caller: LOCAL_CALLER });
 */
export const LOCAL_CALLER: Caller = { user: '(local)', via: 'local' };

/** What set a run going, besides the transport: the hook or cron and the event behind it. */
export interface Trigger {
  hook?: string;
  cron?: string;
  event_id?: string;
  event_type?: string;
}

/** What a run is: one action, a procedure (whose steps are its children), a hook or a cron. */
export type RunKind = 'action' | 'procedure' | 'hook' | 'cron';

/**
 * A run in progress that others nest under: a procedure's, hook's or cron's. Held in
 * {@link runScope} while it runs, so that every `execute()` inside it (YAML steps, or `run()` in a
 * script) records itself as a child without being told.
 */
export interface RunScope {
  id: string;
  rootId: string;
  transport: string;
  caller?: Caller | undefined;
  trigger?: Trigger | undefined;
  /** The last step that failed inside this run (set by `execute()`), for RunFailedEvent. */
  failedStep?: FailedStep;
}

/** A step (an `execute()` call inside a procedure, hook or cron) that failed. */
export interface FailedStep {
  action: string;
  errors: string[];
}

/**
 * One finished run, as observers (the run history, metrics, RunFailedEvent) receive it. `args`
 * are already redacted; `output` is the action's value as is (the history truncates it).
 */
export interface FinishedRun {
  id: string;
  parent_id: string | null;
  root_id: string;
  kind: RunKind;
  /** The action or procedure (`procedure.x`), hook or cron name. */
  name: string;
  /** `http`, `ws`, `cli`, `library`, `hook`, `cron`, `webhook`, `procedure`... */
  transport: string;
  caller: Caller | null;
  trigger: Trigger | null;
  args: Record<string, unknown>;
  /** Epoch milliseconds. */
  started_at: number;
  duration_ms: number;
  outcome: 'ok' | 'failed';
  /** The error code when it failed (ACTION_FAILED, INVALID_ARGUMENTS, NOT_FOUND...). */
  error_code: string | null;
  errors: string[];
  output: unknown;
  /** The run this one replays (`runs.replay`). */
  replay_of: string | null;
  /** For a failed hook or cron run: the last of its steps that failed. */
  failed_step?: FailedStep;
}

/** Receives every finished run; must not throw (it is called on the hot path). */
export type RunObserver = (run: FinishedRun) => void;

/**
 * The run in progress on this async path, if any (see {@link RunScope}).
 *
 * @example
 * runScope.run(scope, () => procedure.run(args, ctx)); // steps inside record `scope.id` as parent
 */
export const runScope = new AsyncLocalStorage<RunScope>();

// Milliseconds × 1024 plus a counter: ids sort by start time, stay unique (monotonic even when
// the clock steps back), and are the history table's integer primary key, so no index is kept for
// them (recording costs the hot path less).
let lastId = 0;

/**
 * A new run id: a decimal string, increasing, derived from the start time (`1795434578123776`).
 *
 * @example
 * Number(newRunId()) < Number(newRunId()); // true
 */
export function newRunId(): string {
  const now = Date.now() * 1024;
  lastId = now > lastId ? now : lastId + 1;
  return String(lastId);
}

/**
 * The smallest run id of runs started at or after `ms` (epoch milliseconds), for time filters.
 *
 * @example
 * runIdAt(Date.parse('2026-11-23T00:00:00Z')); // 1795392000000 * 1024
 */
export function runIdAt(ms: number): number {
  return Math.floor(ms) * 1024;
}

/**
 * Hands finished runs to observers. `enabled` is false while nobody observes every run, so that
 * `execute()` builds no record at all then; hook and cron runs are always tracked (they are few,
 * and their failures raise a RunFailedEvent whether or not the history is kept).
 *
 * @example
 * const runs = new RunObservers();
 * runs.add((run) => console.log(run.name, run.outcome));
 * runs.onTrackedFailure((run) => notify(run));
 */
export class RunObservers {
  #observers: RunObserver[] = [];
  #failures: RunObserver[] = [];
  #onError: (err: unknown) => void;

  constructor(onError: (err: unknown) => void = () => {}) {
    this.#onError = onError;
  }

  get enabled(): boolean {
    return this.#observers.length > 0;
  }

  /** Observes every finished run. Returns a function that removes the observer. */
  add(observer: RunObserver): () => void {
    this.#observers = [...this.#observers, observer];
    return () => {
      this.#observers = this.#observers.filter((o) => o !== observer);
    };
  }

  /** Observes failed hook and cron runs only (see {@link RunObservers.track}). */
  onTrackedFailure(observer: RunObserver): () => void {
    this.#failures = [...this.#failures, observer];
    return () => {
      this.#failures = this.#failures.filter((o) => o !== observer);
    };
  }

  emit(run: FinishedRun): void {
    this.#call(this.#observers, run);
  }

  #call(observers: RunObserver[], run: FinishedRun): void {
    for (const observer of observers) {
      try {
        observer(run);
      } catch (err) {
        this.#onError(err);
      }
    }
  }

  /**
   * Runs `fn` as a run of its own (a hook or a cron) with `fn`'s inner `execute()` calls as its
   * children, and reports it when it settles. Returns what `fn` returns (or throws).
   *
   * @example
   * await runs.track({ kind: 'cron', name: 'Nightly', transport: 'cron', trigger: { cron: 'Nightly' } }, () => job.run());
   */
  async track<T>(
    run: {
      kind: RunKind;
      name: string;
      transport: string;
      args?: Record<string, unknown>;
      caller?: Caller;
      trigger?: Trigger;
      replay_of?: string;
      /** The id to record the run under (default: a new one). */
      id?: string;
      /** Reports the outcome of a value that resolved (a hook's steps that failed but did not throw). */
      failure?: (value: T) => { code: string; errors: string[] } | undefined;
    },
    fn: () => Promise<T>,
  ): Promise<T> {
    const parent = runScope.getStore();
    const id = run.id ?? newRunId();
    const scope: RunScope = {
      id,
      rootId: parent?.rootId ?? id,
      transport: run.transport,
      caller: run.caller ?? parent?.caller,
      trigger: run.trigger ?? parent?.trigger,
    };
    const startedAt = Date.now();
    const started = performance.now();
    const finish = (
      outcome: 'ok' | 'failed',
      output: unknown,
      code: string | null,
      errors: string[],
    ) => {
      const finished: FinishedRun = {
        id,
        parent_id: parent?.id ?? null,
        root_id: scope.rootId,
        kind: run.kind,
        name: run.name,
        transport: run.transport,
        caller: scope.caller ?? null,
        trigger: scope.trigger ?? null,
        args: run.args ?? {},
        started_at: startedAt,
        duration_ms: performance.now() - started,
        outcome,
        error_code: code,
        errors,
        output,
        replay_of: run.replay_of ?? null,
        ...(scope.failedStep ? { failed_step: scope.failedStep } : {}),
      };
      this.#call(this.#observers, finished);
      if (outcome === 'failed') this.#call(this.#failures, finished);
    };
    try {
      const value = await runScope.run(scope, fn);
      const failure = run.failure?.(value);
      if (failure) finish('failed', value, failure.code, failure.errors);
      else finish('ok', value, null, []);
      return value;
    } catch (err) {
      const code =
        err && typeof err === 'object' && 'code' in err && typeof err.code === 'string'
          ? err.code
          : 'ACTION_FAILED';
      finish('failed', undefined, code, [err instanceof Error ? err.message : String(err)]);
      throw err;
    }
  }
}
