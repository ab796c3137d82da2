import { Cron } from 'croner';
import type { ClaimOptions } from '../core/cluster-port.ts';
import { PipitError } from '../core/errors.ts';
import { toCronerPattern } from './expression.ts';
import { debugErr } from '../core/logger.ts';
import type { Logger } from '../core/logger.ts';
import type { Caller, RunObservers } from '../core/runs.ts';

/** A scheduled job: a YAML `cron.<name>` or a script's `cron(expression, fn)`. */
export interface CronJobDef {
  name: string;
  expression: string;
  /** IANA time zone (e.g. "Europe/Rome"); default: the machine's. */
  timezone?: string | undefined;
  source: string;
  /** The actions its steps call, where known (YAML), for the check at load. */
  calls?: { action: string; path: string }[];
  /** Runs on one instance of a cluster per scheduled time (see {@link Scheduler.claim}). */
  once?: boolean;
  run(signal: AbortSignal): Promise<unknown>;
}

/** What happened when a job was due. */
export type CronRunResult = 'ran' | 'failed' | 'skipped';

interface Job {
  def: CronJobDef;
  cron: Cron;
}

// A paused Cron for a job, or CONFIG_INVALID naming its expression and time zone.
function pausedCron(def: CronJobDef, onTick: (cron: Cron) => Promise<void> | void): Cron {
  let cron: Cron;
  try {
    cron = new Cron(
      toCronerPattern(def.expression),
      {
        paused: true,
        ...(def.timezone ? { timezone: def.timezone } : {}),
      },
      onTick,
    );
    // croner answers null, not an error, for a pattern that matches no date (Feb 30).
    if (cron.nextRun() === null) throw new Error('it matches no date, so the job would never run');
  } catch (err) {
    throw new PipitError(
      'CONFIG_INVALID',
      `${def.source}: cron.${def.name}: invalid cron_expression "${def.expression}"${def.timezone ? ` or timezone "${def.timezone}"` : ''}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  return cron;
}

/**
 * Runs cron jobs. A run still going when the next is due is not started twice (that run is
 * skipped and logged); a failing run is logged and the job stays scheduled.
 *
 * @example
 * const scheduler = new Scheduler(log);
 * scheduler.add({ name: 'Nightly', expression: '0 23 * * *', source: 'config.yaml', run });
 * scheduler.start();
 */
export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  /**
   * Names of the jobs whose run is in progress. Kept apart from the jobs so that a reload, which
   * replaces every job, does not let a job still running from before start a second run.
   */
  private readonly running = new Set<string>();
  private readonly log: Logger;
  private readonly controller = new AbortController();
  private readonly listeners = new Set<(name: string, result: CronRunResult) => void>();
  private started = false;

  /**
   * The cluster's lock for `once: true` jobs: when set, such a job runs only where it takes the
   * lock for its scheduled time. Without a cluster, every job runs on its instance.
   */
  claim: ((key: string, opts?: ClaimOptions) => Promise<boolean>) | undefined;

  private readonly runs: RunObservers | undefined;

  /**
   * Jobs switched off (`automations.disable`): a port the automations plugin fills. A disabled job
   * stays scheduled (a switch back on needs no reload) but its due runs are not started.
   */
  isDisabled: ((name: string) => boolean) | undefined;

  /** `runs` records each cron run (its steps become its children) and reports failures. */
  constructor(log: Logger, runs?: RunObservers) {
    this.log = log;
    this.runs = runs;
  }

  /** Validates and registers a job (paused until {@link start}); CONFIG_INVALID on a bad one. */
  add(def: CronJobDef): void {
    if (this.jobs.has(def.name))
      throw new PipitError(
        'CONFIG_INVALID',
        `${def.source}: a cron job named "${def.name}" already exists`,
      );
    this.jobs.set(def.name, { def, cron: this.schedule(def) });
    if (this.started) this.jobs.get(def.name)!.cron.resume();
  }

  /**
   * Replaces every job at once (a reload): all new ones are validated first, so a bad one leaves
   * the old schedule untouched; runs in progress finish.
   */
  replaceAll(defs: readonly CronJobDef[]): void {
    const names = new Set<string>();
    const jobs = defs.map((def) => {
      if (names.has(def.name))
        throw new PipitError(
          'CONFIG_INVALID',
          `${def.source}: a cron job named "${def.name}" already exists`,
        );
      names.add(def.name);
      return { def, cron: this.schedule(def) };
    });
    for (const job of this.jobs.values()) job.cron.stop();
    this.jobs.clear();
    for (const job of jobs) {
      this.jobs.set(job.def.name, job);
      if (this.started) job.cron.resume();
    }
  }

  /**
   * Checks a job's expression and time zone without scheduling it; CONFIG_INVALID when bad.
   *
   * @example
   * Scheduler.validate({ name: 'x', expression: '0 23 * * *', source: 'a.ts', run });
   */
  static validate(def: CronJobDef): void {
    pausedCron(def, () => undefined).stop();
  }

  private schedule(def: CronJobDef): Cron {
    return pausedCron(def, async (cron) => {
      if (this.isDisabled?.(def.name)) return;
      if (def.once && this.claim) {
        // The time it was due, not the time it fired: the same on every instance. Croner hands the
        // firing time, so the due time is the last one the pattern matched.
        const due = cron.previousRuns(1, new Date(Date.now() + 1))[0] ?? new Date();
        // A claim resolved later than half a period after the due time is dropped: this instance
        // was stalled or cut off, and whoever ran the slot may hold a lock that is gone by now.
        const period = (cron.nextRun(due)?.getTime() ?? Infinity) - due.getTime();
        const claim = { at: due.getTime(), local: true, maxAgeMs: period / 2 };
        if (!(await this.claim(`cron:${def.name}:${due.getTime()}`, claim))) return;
      }
      await this.runNow(def.name);
    });
  }

  start(): void {
    this.started = true;
    for (const job of this.jobs.values()) job.cron.resume();
  }

  stop(): void {
    this.controller.abort();
    for (const job of this.jobs.values()) job.cron.stop();
  }

  list(): {
    name: string;
    expression: string;
    timezone: string | null;
    next: string | null;
    source: string;
    /** Switched off by `automations.disable`: its due runs are not started. */
    disabled: boolean;
  }[] {
    return [...this.jobs.values()].map(({ def, cron }) => ({
      name: def.name,
      expression: def.expression,
      timezone: def.timezone ?? null,
      next: cron.nextRun()?.toISOString() ?? null,
      source: def.source,
      disabled: this.isDisabled?.(def.name) ?? false,
    }));
  }

  /** Calls `listener(name, result)` after every due run (tests, metrics). */
  onRun(listener: (name: string, result: CronRunResult) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs a job now, as the schedule does; 'skipped' while its previous run is still going. */
  async runNow(
    name: string,
    origin: { caller?: Caller; replayOf?: string; runId?: string } = {},
  ): Promise<CronRunResult> {
    const job = this.jobs.get(name);
    if (!job) throw new PipitError('NOT_FOUND', `no cron job named "${name}"`);
    let result: CronRunResult;
    if (this.running.has(name)) {
      this.log.warn({ cron: name }, `cron job ${name} is still running: this run is skipped`);
      result = 'skipped';
    } else {
      this.running.add(name);
      try {
        const run = () => job.def.run(this.controller.signal);
        await (this.runs
          ? this.runs.track(
              {
                kind: 'cron',
                name,
                transport: 'cron',
                trigger: { cron: name },
                ...(origin.caller ? { caller: origin.caller } : {}),
                ...(origin.replayOf ? { replay_of: origin.replayOf } : {}),
                ...(origin.runId ? { id: origin.runId } : {}),
              },
              run,
            )
          : run());
        result = 'ran';
      } catch (err) {
        this.log.warn(
          { cron: name, source: job.def.source, ...debugErr(this.log, err) },
          `cron job ${name} failed: ${err instanceof Error ? err.message : String(err)}`,
        );
        result = 'failed';
      } finally {
        this.running.delete(name);
      }
    }
    for (const listener of this.listeners) listener(name, result);
    return result;
  }
}
