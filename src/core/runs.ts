import { AsyncLocalStorage } from 'node:async_hooks';
import type { ParamShape } from './action.ts';

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
 * await service.execute(request, { transport: 'cli', caller: LOCAL_CALLER });
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
  id: number;
  rootId: number;
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
 * One finished run, as observers (the run history, metrics, RunFailedEvent) receive it. `args` and
 * `output` are as given: the history masks secrets (with `params`) and cuts them when it writes,
 * off the request's path.
 */
export interface FinishedRun {
  /** See {@link newRunId}: a number here, written as a decimal string wherever it is shown. */
  id: number;
  parent_id: number | null;
  root_id: number;
  kind: RunKind;
  /** The action or procedure (`procedure.x`), hook or cron name. */
  name: string;
  /** `http`, `ws`, `cli`, `library`, `hook`, `cron`, `webhook`, `procedure`... */
  transport: string;
  caller: Caller | null;
  trigger: Trigger | null;
  args: Record<string, unknown>;
  /** The action's declared parameters, whose `secret()` marks say what to mask in `args`. */
  params?: ParamShape | undefined;
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
  return String(nextRunId());
}

/**
 * {@link newRunId} as a number (what `execute()` records: turning a 16-digit number into text costs
 * more than the rest of the record, so it is done only where an id is shown).
 *
 * @example
 * nextRunId() < nextRunId(); // true
 */
export function nextRunId(ms = Date.now()): number {
  const now = ms * 1024;
  lastId = now > lastId ? now : lastId + 1;
  return lastId;
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

  /** Hands a finished run to the observers (and a failed hook or cron run to the failure ones). */
  emit(run: FinishedRun): void {
    this.#call(this.#observers, run);
    if (run.outcome === 'failed' && (run.kind === 'hook' || run.kind === 'cron'))
      this.#call(this.#failures, run);
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
  track<T>(
    run: RunStart & { kind: RunKind; name: string; args?: Record<string, unknown> },
    fn: () => Promise<T>,
  ): Promise<T> {
    const record = new RunRecord(this, run);
    record.kind = run.kind;
    record.name = run.name;
    if (run.args) record.args = run.args;
    // Chained rather than awaited: an async function costs every web hook a promise more and its
    // turns (with Hooks.runOne and the route, a web hook went from 13 promises a request to 7).
    // The settling callbacks run outside the run's scope, as an await's continuation did.
    let pending: Promise<T>;
    try {
      pending = runScope.run(record.scope(), fn);
    } catch (err) {
      failRecord(record, err);
      // What fn threw, passed on as it is (whatever it is), as `await` did.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(err);
    }
    return Promise.resolve(pending).then(
      (value) => {
        record.finish(null, [], value);
        return value;
      },
      (err: unknown) => {
        failRecord(record, err);
        throw err;
      },
    );
  }
}

function failRecord(record: RunRecord, err: unknown): void {
  const code =
    err && typeof err === 'object' && 'code' in err && typeof err.code === 'string'
      ? err.code
      : 'ACTION_FAILED';
  record.finish(code, [err instanceof Error ? err.message : String(err)]);
}

/** Who and what starts a run: its transport, and what it does not inherit from the run around it. */
export interface RunStart {
  transport: string;
  caller?: Caller | undefined;
  trigger?: Trigger | undefined;
  replay_of?: string | undefined;
  /** The id to record the run under (default: a new one), for a caller that must point at it. */
  id?: string | undefined;
}

/**
 * One run being recorded, by `execute()` or {@link RunObservers.track}: its parent is the run in
 * {@link runScope} when it starts, its caller and trigger are inherited from that parent unless
 * given, and `finish()` reports it once.
 *
 * @example
 * const record = new RunRecord(runs, { transport: 'http', caller });
 * record.name = 'utils.echo';
 * record.finish(null, [], { text: 'hi' });
 */
export class RunRecord {
  readonly id: number;
  /** `performance.now()` at the start, for the duration. */
  readonly started = performance.now();
  kind: RunKind = 'action';
  name = '(invalid request)';
  args: Record<string, unknown> = {};
  params: ParamShape | undefined;
  readonly #startedAt: number;
  readonly #observers: RunObservers;
  readonly #start: RunStart;
  readonly #parent: RunScope | undefined;
  #scope: RunScope | undefined;

  constructor(observers: RunObservers, start: RunStart) {
    this.#observers = observers;
    this.#start = start;
    this.#parent = runScope.getStore();
    this.#startedAt = Date.now();
    this.id = start.id === undefined ? nextRunId(this.#startedAt) : Number(start.id);
  }

  get caller(): Caller | undefined {
    return this.#start.caller ?? this.#parent?.caller;
  }

  /** The scope this run's steps run in (made once). */
  scope(): RunScope {
    return (this.#scope ??= {
      id: this.id,
      rootId: this.#parent?.rootId ?? this.id,
      caller: this.caller,
      trigger: this.#start.trigger ?? this.#parent?.trigger,
    });
  }

  /** Reports the run: failed when `errorCode` is set, else ok with `output`. */
  finish(errorCode: string | null, errors: string[], output?: unknown): void {
    const parent = this.#parent;
    const failedStep = this.#scope?.failedStep;
    this.#observers.emit({
      id: this.id,
      parent_id: parent?.id ?? null,
      root_id: parent?.rootId ?? this.id,
      kind: this.kind,
      name: this.name,
      transport: this.#start.transport,
      caller: this.caller ?? null,
      trigger: this.#start.trigger ?? parent?.trigger ?? null,
      args: this.args,
      params: this.params,
      started_at: this.#startedAt,
      duration_ms: performance.now() - this.started,
      outcome: errorCode ? 'failed' : 'ok',
      error_code: errorCode,
      errors,
      output: errorCode ? undefined : output,
      replay_of: this.#start.replay_of ?? null,
      failed_step: failedStep,
    });
  }
}
