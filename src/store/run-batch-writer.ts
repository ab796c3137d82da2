import { SizedMasker } from '../core/redact.ts';
import type { FinishedRun } from '../core/runs.ts';
import { FLAG, SLOT } from './run-codec.ts';

/**
 * Writes one batch of the history as compact JSON text:
 * `{"v":3,"base":B,"strings":[...],"contexts":[[...]],"runs":[[...]]}`. What runs of a batch share
 * (kind, name, transport, caller, trigger, error code, replayed run) is written once, as a
 * context of indexes into `strings`. A run is a short array (see `decodeBatch` in run-codec.ts):
 * its id as an offset from the batch's lowest id `B`, its parent and root as offsets from its id
 * (an id is never its own parent: 0 there means none), its context, its start and duration (µs),
 * flags, and its values. What recording costs is mostly JSON work, bytes written (SQLite's WAL and
 * its checkpoint) and numbers turned into text: ~70 bytes for a `utils.echo` (~105 in format 2,
 * which wrote every run's shared fields). Secrets are masked here (declared `secret()` parameters
 * and credential keys at any depth), at the batched write, off the request's path; arguments and
 * outputs are cut to `maxBytes` characters of JSON.
 *
 * The whole batch is one `JSON.stringify` (its cost is mostly per call: ~0.3 µs a run less than a
 * call per run): a value goes in as it is when the masking walk bounds its JSON under `maxBytes`,
 * else it is written alone, measured, and cut or parsed back.
 *
 * @example
 * const batch = new BatchWriter(minId, 16384);
 * for (const run of runs) batch.add(run);
 * db.prepare('INSERT INTO run_batches (runs) VALUES (?)').run(batch.text());
 */
export class BatchWriter {
  readonly #base: number;
  readonly #maxBytes: number;
  readonly #strings: string[] = [];
  readonly #index = new Map<string, number>();
  readonly #contexts: number[][] = [];
  readonly #contextIndex = new Map<string, number>();
  readonly #runs: unknown[][] = [];
  readonly #masker = new SizedMasker();
  /** The last run added and its context: a busy service's runs mostly share the one before. */
  #last: FinishedRun | undefined;
  #lastContext = -1;

  constructor(base: number, maxBytes: number) {
    this.#base = base;
    this.#maxBytes = maxBytes;
  }

  add(run: FinishedRun): void {
    const id = run.id;
    const slots: unknown[] = [
      id - this.#base,
      run.parent_id === null ? 0 : id - run.parent_id,
      id - run.root_id,
      this.#context(run),
      run.started_at - Math.floor(id / 1024),
      Math.round(run.duration_ms * 1000),
      0,
    ];
    this.#values(run, slots);
    this.#runs.push(slots);
  }

  /** The run's context index: the last run's when they share it, else found or added. */
  #context(run: FinishedRun): number {
    const last = this.#last;
    if (last && sameContext(last, run)) return this.#lastContext;
    const c = run.caller;
    const t = run.trigger;
    const context = [
      this.#str(run.kind),
      this.#str(run.name),
      this.#str(run.transport),
      this.#str(c?.user),
      this.#str(c?.via),
      this.#str(c?.token_id),
      this.#str(t?.hook),
      this.#str(t?.cron),
      this.#str(t?.event_id),
      this.#str(t?.event_type),
      this.#str(run.error_code),
      this.#str(run.replay_of),
    ];
    const key = context.join();
    let i = this.#contextIndex.get(key);
    if (i === undefined) {
      i = this.#contexts.push(context) - 1;
      this.#contextIndex.set(key, i);
    }
    this.#last = run;
    this.#lastContext = i;
    return i;
  }

  /** The flags, then the arguments, the output (if any) and the errors (if any), masked and cut. */
  #values(run: FinishedRun, slots: unknown[]): void {
    const max = this.#maxBytes;
    const masker = this.#masker;
    let flags = run.outcome === 'failed' ? FLAG.failed : 0;
    let args: unknown;
    let argsSize: number;
    try {
      args = masker.maskArgs(run.args, run.params);
      argsSize = masker.size;
    } catch (err) {
      // A reason can be long: measured like a value over the bound.
      args = notJson(err);
      argsSize = Infinity;
    }
    let output: unknown;
    let outputSize = 0;
    if (run.output !== undefined) {
      flags |= FLAG.hasOutput;
      try {
        output = masker.mask(run.output);
        outputSize = masker.size;
      } catch (err) {
        output = notJson(err);
        outputSize = Infinity;
      }
    }
    if (argsSize > max || outputSize > max) {
      const a = exactly(args, max);
      args = a.value;
      if (a.truncated) flags |= FLAG.argsCut;
      if (flags & FLAG.hasOutput) {
        const o = exactly(output, max);
        output = o.value;
        if (o.truncated) flags |= FLAG.outputCut;
      }
    }
    slots[SLOT.flags] = run.errors.length ? flags | FLAG.hasErrors : flags;
    slots.push(args);
    if (flags & FLAG.hasOutput) slots.push(output);
    // Messages may quote what failed: a URL with its query, an error page's JSON.
    if (run.errors.length) slots.push(masker.mask(run.errors));
  }

  text(): string {
    const batch = {
      v: 3,
      base: this.#base,
      strings: this.#strings,
      contexts: this.#contexts,
      runs: this.#runs,
    };
    try {
      return JSON.stringify(batch);
    } catch {
      // A value that changed after its walk (a getter) and no longer writes: found run by run,
      // then written alone, as any value over the bound is.
      for (const slots of this.#runs) {
        try {
          JSON.stringify(slots);
        } catch {
          let flags = slots[SLOT.flags] as number;
          const a = exactly(slots[SLOT.args], this.#maxBytes);
          slots[SLOT.args] = a.value;
          if (a.truncated) flags |= FLAG.argsCut;
          if (flags & FLAG.hasOutput) {
            const o = exactly(slots[SLOT.args + 1], this.#maxBytes);
            slots[SLOT.args + 1] = o.value;
            if (o.truncated) flags |= FLAG.outputCut;
          }
          slots[SLOT.flags] = flags;
        }
      }
      return JSON.stringify(batch);
    }
  }

  #str(text: string | null | undefined): number {
    if (text === undefined || text === null) return -1;
    let i = this.#index.get(text);
    if (i === undefined) {
      i = this.#strings.push(text) - 1;
      this.#index.set(text, i);
    }
    return i;
  }
}

/** True when two runs have the same context (what `BatchWriter` writes once for both). */
function sameContext(a: FinishedRun, b: FinishedRun): boolean {
  if (
    a.name !== b.name ||
    a.kind !== b.kind ||
    a.transport !== b.transport ||
    a.error_code !== b.error_code ||
    a.replay_of !== b.replay_of
  )
    return false;
  const c = a.caller;
  const d = b.caller;
  if (c !== d && (!c || !d || c.user !== d.user || c.via !== d.via || c.token_id !== d.token_id))
    return false;
  const t = a.trigger;
  const u = b.trigger;
  return (
    t === u ||
    (!!t &&
      !!u &&
      t.hook === u.hook &&
      t.cron === u.cron &&
      t.event_id === u.event_id &&
      t.event_type === u.event_type)
  );
}

/** What is kept of a value that cannot be written as JSON: the reason. */
function notJson(err: unknown): string {
  return `[not JSON: ${err instanceof Error ? err.message : String(err)}]`;
}

// A value written alone: kept as JSON gives it back when it fits (a plain copy, which the batch's
// JSON.stringify writes as it was written here), else the start of its JSON text.
function exactly(value: unknown, max: number): { value: unknown; truncated: boolean } {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch (err) {
    // An output that is not JSON (a circular value from a script's run()): say so, keep the run.
    return { value: notJson(err), truncated: false };
  }
  return text.length > max
    ? { value: text.slice(0, max), truncated: true }
    : { value: JSON.parse(text) as unknown, truncated: false };
}
