import { SizedMasker } from '../core/redact.ts';
import type { FinishedRun } from '../core/runs.ts';

/**
 * Writes one batch of the history as compact JSON text: `{"v":2,"base":B,"strings":[...],"runs":[...]}`.
 * Each run is an array (see `decodeBatch` in run-codec.ts for its slots): ids are offsets from the batch's
 * lowest id `B`, names, transports, callers and other repeated text are indexes into `strings`, and
 * the duration is in microseconds. What recording costs is mostly bytes written (SQLite's WAL and
 * its checkpoint) and numbers turned into text; small integers keep both down, to ~110 bytes for a
 * `utils.echo`. Secrets are masked here (declared `secret()` parameters and credential keys at any
 * depth), at the batched write, off the request's path; arguments and outputs are cut to
 * `maxBytes` characters of JSON.
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
  readonly #runs: unknown[][] = [];
  readonly #masker = new SizedMasker();

  constructor(base: number, maxBytes: number) {
    this.#base = base;
    this.#maxBytes = maxBytes;
  }

  add(run: FinishedRun): void {
    const c = run.caller;
    const t = run.trigger;
    const b = this.#base;
    const slots: unknown[] = [
      run.id - b,
      run.parent_id === null ? null : run.parent_id - b,
      run.root_id - b,
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
      run.started_at - Math.floor(run.id / 1024),
      Math.round(run.duration_ms * 1000),
      run.outcome === 'failed' ? 1 : 0,
      this.#str(run.error_code),
      run.errors.length ? run.errors : 0,
      run.replay_of === null ? -1 : this.#str(run.replay_of),
    ];
    this.#values(run, slots);
    this.#runs.push(slots);
  }

  /** Slots 19-21: the flags, the arguments and the output, masked and cut. */
  #values(run: FinishedRun, slots: unknown[]): void {
    const max = this.#maxBytes;
    const masker = this.#masker;
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
      try {
        output = masker.mask(run.output);
        outputSize = masker.size;
      } catch (err) {
        output = notJson(err);
        outputSize = Infinity;
      }
    }
    const has = run.output === undefined ? 0 : 4;
    if (argsSize <= max && outputSize <= max) {
      if (has) slots.push(has, args, output);
      else slots.push(0, args);
      return;
    }
    const a = exactly(args, max);
    const o = has ? exactly(output, max) : undefined;
    slots.push((a.truncated ? 1 : 0) | (o ? (o.truncated ? 6 : 4) : 0), a.value);
    if (o) slots.push(o.value);
  }

  text(): string {
    const batch = { v: 2, base: this.#base, strings: this.#strings, runs: this.#runs };
    try {
      return JSON.stringify(batch);
    } catch {
      // A value that changed after its walk (a getter) and no longer writes: found run by run,
      // then written alone, as any value over the bound is.
      for (const slots of this.#runs) {
        try {
          JSON.stringify(slots);
        } catch {
          const a = exactly(slots[20], this.#maxBytes);
          const o = (slots[19] as number) & 4 ? exactly(slots[21], this.#maxBytes) : undefined;
          slots.splice(19, 3, (a.truncated ? 1 : 0) | (o ? (o.truncated ? 6 : 4) : 0), a.value);
          if (o) slots.push(o.value);
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
