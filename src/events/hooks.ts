import { PipitError } from '../core/errors.ts';
import { debugErr } from '../core/logger.ts';
import type { Logger } from '../core/logger.ts';
import { BLOCKED_WARN_MS } from '../core/loop-monitor.ts';
import type { Caller, RunObservers } from '../core/runs.ts';
import { CoreKinds } from './kinds.ts';
import type { PipitEvent } from './event.ts';
import type { EventPredicate } from './match.ts';

// Hooks run from the bus have no caller to give up on them: one signal that never fires serves all.
const NO_ABORT = new AbortController().signal;

/**
 * Runs of one hook that may be going at once. An event storm (a flooding MQTT device, a client
 * publishing in a loop) met by a hook that waits (a sleep, a slow HTTP call) would otherwise start
 * a run per event and hold each one's memory (~10 KB) until it ends: thousands a second for
 * minutes is gigabytes, and the process dies. Past the cap, the event is skipped for that hook.
 */
export const MAX_RUNNING_PER_HOOK = 1000;
/** A hook skipping events is logged at most this often (with the count since the last line). */
const SKIP_LOG_MS = 10_000;

/**
 * The outcome's error when a hook had {@link MAX_RUNNING_PER_HOOK} runs going and skipped the
 * event (a web hook answers it with 503; a listener's own errors stay a 500 without details).
 *
 * @example
 * if (!outcome.ok && outcome.error instanceof HookBusyError) retryLater();
 */
export class HookBusyError extends PipitError {
  constructor(message: string) {
    super('UNAVAILABLE', message);
  }
}

/** An explicit answer to a web hook: body, HTTP status, response headers (what `send_response` sets). */
export interface HookResponse {
  body: unknown;
  status: number;
  headers: Record<string, string>;
}

/** What a running hook gets besides the event. */
export interface HookRunContext {
  signal: AbortSignal;
  /** Present for web hooks: answers the HTTP client (the first answer wins). */
  respond?: (response: HookResponse) => void;
}

/** Who asked for a hook run other than the event itself (`runs.replay`). */
export interface HookRunOrigin {
  caller?: Caller;
  replayOf?: string;
  /** The id to record the run under (chosen by the caller, to point at it). */
  runId?: string;
}

/** A listener: a YAML `event.hook.<name>` or a script's `hook(kind, filter, fn)`. */
export interface Hook {
  name: string;
  /** Config file or script path, for logs and errors. */
  source: string;
  matches: EventPredicate;
  /** The actions its steps call, where known (YAML), for the check at load. */
  calls?: { action: string; path: string }[];
  /** Runs on one instance of a cluster per event (the one that takes its lock), not on each. */
  once?: boolean;
  /** The web hook (`/hook/<name>`) it listens to, when its condition names one. */
  webhook?: string;
  /** Its condition as written (`{type, ...fields}`), to show it (the Automations page). */
  condition?: Readonly<Record<string, unknown>>;
  run(event: PipitEvent, ctx: HookRunContext): Promise<unknown>;
}

/** One hook name's runs going, and its skipped events not yet logged. */
interface HookCounts {
  running: number;
  skipped: number;
  loggedAt: number;
}

/** The outcome of one hook run. */
export type HookOutcome =
  { hook: Hook; ok: true; value: unknown } | { hook: Hook; ok: false; error: unknown };

/**
 * The registered hooks. Every matching hook runs, concurrently, started in registration order (YAML
 * hooks in config order, then script hooks in script-file order); a failing hook is logged and
 * does not affect the others.
 *
 * @example
 * hooks.add({ name: 'OnDoor', source: 'config.yaml', matches, run });
 * await hooks.dispatch(event);
 */
export class Hooks {
  private readonly hooks: Hook[] = [];
  private readonly log: Logger;
  private readonly runs: RunObservers | undefined;
  private readonly maxRunning: number;
  // By hook name (a reload replaces the objects; their runs still count against the name). Entries
  // stay: one per name ever registered, and a run then costs one lookup.
  private readonly counts = new Map<string, HookCounts>();
  /** Told of every event a hook skips (the metrics count them). */
  onSkip: ((hook: string) => void) | undefined;
  /**
   * Hooks switched off (`automations.disable`): a port the automations plugin fills, so that this
   * layer need not know where the switch is kept. A disabled hook matches no event.
   */
  isDisabled: ((hook: string) => boolean) | undefined;

  /**
   * `runs` records each hook run (its steps become its children) and reports failures;
   * `maxRunning` is {@link MAX_RUNNING_PER_HOOK} unless a test lowers it.
   */
  constructor(log: Logger, runs?: RunObservers, maxRunning = MAX_RUNNING_PER_HOOK) {
    this.log = log;
    this.runs = runs;
    this.maxRunning = maxRunning;
  }

  /** Runs of the hook named `name` going now. */
  runningOf(name: string): number {
    return this.counts.get(name)?.running ?? 0;
  }

  /** The hook registered under `name`, if any. */
  get(name: string): Hook | undefined {
    return this.hooks.find((h) => h.name === name);
  }

  add(hook: Hook): void {
    if (this.hooks.some((h) => h.name === hook.name)) {
      throw new PipitError(
        'CONFIG_INVALID',
        `${hook.source}: a hook named "${hook.name}" already exists`,
      );
    }
    this.hooks.push(hook);
  }

  /** Replaces every hook at once (a reload); runs already started finish with the old ones. */
  replaceAll(hooks: readonly Hook[]): void {
    this.hooks.splice(0, this.hooks.length, ...hooks);
  }

  list(): readonly Hook[] {
    return this.hooks;
  }

  matching(event: PipitEvent): Hook[] {
    const disabled = this.isDisabled;
    return this.hooks.filter((h) => h.matches(event.args) && !disabled?.(h.name));
  }

  /**
   * Runs one hook, turning its failure into an outcome (and a log line) instead of a throw. A hook
   * whose synchronous part holds the event loop for long is named in a warning: nothing else runs
   * meanwhile, and a script cannot be interrupted. A hook with {@link MAX_RUNNING_PER_HOOK} runs
   * going does not run: the outcome is an UNAVAILABLE error (a web hook's caller gets a 503).
   */
  runOne(
    hook: Hook,
    event: PipitEvent,
    ctx: HookRunContext,
    origin: HookRunOrigin = {},
  ): Promise<HookOutcome> {
    const counts = this.countsOf(hook.name);
    if (counts.running >= this.maxRunning)
      return Promise.resolve({ hook, ok: false, error: this.skip(hook, counts) });
    counts.running++;
    // Chained rather than an async function with try/finally: a promise less per web hook (see
    // RunObservers.track).
    let pending: Promise<unknown>;
    try {
      const started = performance.now();
      pending = this.runs
        ? this.runs.track(
            {
              kind: 'hook',
              name: hook.name,
              transport: event.args.type === CoreKinds.WebhookEvent ? 'webhook' : 'hook',
              args: event.args,
              trigger: { hook: hook.name, event_id: event.id, event_type: event.args.type },
              ...(origin.caller ? { caller: origin.caller } : {}),
              ...(origin.replayOf ? { replay_of: origin.replayOf } : {}),
              ...(origin.runId ? { id: origin.runId } : {}),
            },
            () => hook.run(event, ctx),
          )
        : hook.run(event, ctx);
      const blocked = performance.now() - started;
      if (blocked >= BLOCKED_WARN_MS) {
        this.log.warn(
          { hook: hook.name, source: hook.source, blocked_ms: Math.round(blocked) },
          `hook ${hook.name} blocked the event loop for ${Math.round(blocked)} ms: move long synchronous work out of it`,
        );
      }
    } catch (err) {
      counts.running--;
      return Promise.resolve(this.failed(hook, event, err));
    }
    return Promise.resolve(pending).then(
      (value): HookOutcome => {
        counts.running--;
        return { hook, ok: true, value };
      },
      (err: unknown) => {
        counts.running--;
        return this.failed(hook, event, err);
      },
    );
  }

  private failed(hook: Hook, event: PipitEvent, err: unknown): HookOutcome {
    this.log.warn(
      { hook: hook.name, source: hook.source, event: event.args.type, ...debugErr(this.log, err) },
      `hook ${hook.name} failed: ${err instanceof Error ? err.message : String(err)}`,
    );
    return { hook, ok: false, error: err };
  }

  private countsOf(name: string): HookCounts {
    let counts = this.counts.get(name);
    if (!counts) this.counts.set(name, (counts = { running: 0, skipped: 0, loggedAt: -Infinity }));
    return counts;
  }

  private skip(hook: Hook, counts: HookCounts): HookBusyError {
    const message = `hook ${hook.name} already has ${this.maxRunning} runs going: this event was skipped for it. Send it again once they finish; if this goes on, make the hook's runs end sooner (a slow call, a long sleep) or its condition match fewer events`;
    const now = Date.now();
    counts.skipped++;
    this.onSkip?.(hook.name);
    if (now - counts.loggedAt >= SKIP_LOG_MS) {
      this.log.warn(
        { hook: hook.name, source: hook.source, skipped: counts.skipped },
        `${message}; ${counts.skipped} skipped since the last such line`,
      );
      counts.skipped = 0;
      counts.loggedAt = now;
    }
    return new HookBusyError(message);
  }

  /** Runs every hook matching the event; resolves when all have finished. */
  dispatch(event: PipitEvent, signal: AbortSignal = NO_ABORT): Promise<HookOutcome[]> {
    return this.runAll(this.matching(event), event, signal);
  }

  /** Runs the given (matching) hooks on the event; resolves when all have finished. */
  runAll(hooks: Hook[], event: PipitEvent, signal: AbortSignal = NO_ABORT): Promise<HookOutcome[]> {
    return Promise.all(hooks.map((hook) => this.runOne(hook, event, { signal })));
  }
}
