/** One stored run as the `runs` plugin shows it (times in ISO 8601, ids as decimal strings). */
export interface StoredRun {
  id: string;
  parent_id: string | null;
  root_id: string;
  kind: string;
  name: string;
  transport: string;
  caller: { user: string; via: string; token?: string } | null;
  trigger: { hook?: string; cron?: string; event_id?: string; event_type?: string } | null;
  args: Record<string, unknown>;
  started_at: string;
  duration_ms: number;
  outcome: 'ok' | 'failed';
  error_code: string | null;
  errors: string[];
  replay_of: string | null;
  /** How many runs ran as this one's steps. */
  steps: number;
}

/** A stored run with its output (`runs.get`). */
export interface StoredRunDetail extends StoredRun {
  output: unknown;
  /** The output was longer than the configured limit: `output` is the start of its JSON text. */
  output_truncated: boolean;
}

/**
 * A run as a batch of the history keeps it: one JSON object in the batch's array. Ids are numbers
 * (start time × 1024, below 2^53); fields that are empty are left out. `args` and `output` are the
 * values themselves, or the start of their JSON text when they were cut (`*_truncated`).
 */
export interface RawRun {
  id: number;
  parent_id?: number | null;
  /** Left out when it is the run itself. */
  root_id?: number | null;
  kind: string;
  name: string;
  transport: string;
  caller?: { user: string; via?: string | null; token_id?: string | null } | null;
  trigger?: {
    hook?: string | null;
    cron?: string | null;
    event_id?: string | null;
    event_type?: string | null;
  } | null;
  args?: unknown;
  args_truncated?: boolean | null;
  /** Epoch milliseconds. */
  started_at: number;
  duration_ms: number;
  outcome: 'ok' | 'failed';
  error_code?: string | null;
  errors?: string[] | null;
  output?: unknown;
  output_truncated?: boolean | null;
  replay_of?: number | null;
}

/**
 * Slots of a compact run (format 3) that are not read in order: its flags and its arguments (the
 * output and the errors follow, when the flags say they are there).
 *
 * @example
 * slots[SLOT.flags] & FLAG.failed; // the run failed
 */
export const SLOT = { flags: 6, args: 7 } as const;

/**
 * Bits of a compact run's flags slot.
 *
 * @example
 * FLAG.hasOutput | FLAG.outputCut; // an output, cut to the limit
 */
export const FLAG = { argsCut: 1, outputCut: 2, hasOutput: 4, failed: 8, hasErrors: 16 } as const;

/** A batch in the compact form of format 2 (written before format 3; still read). */
interface CompactBatchV2 {
  v: 2;
  base: number;
  strings: string[];
  runs: unknown[][];
}

/** A batch as `BatchWriter` (run-batch-writer.ts) writes it. */
interface CompactBatch {
  v: 3;
  base: number;
  strings: string[];
  contexts: number[][];
  runs: unknown[][];
}

/**
 * The runs of one stored batch: the compact form `BatchWriter` (run-batch-writer.ts) writes
 * (format 3, or format 2 written by earlier versions), or a plain array of {@link RawRun} (batches
 * moved from the version 2 table, and batches written again by pruning).
 *
 * Format 3: `contexts` holds what runs share, as indexes into `strings` (-1: none): 0 kind, 1 name,
 * 2 transport, 3-5 caller user, via and token id, 6-9 hook, cron, event id and event type, 10
 * error code, 11 the replayed run's id. Slots of a run: 0 id (offset from `base`), 1 the id minus
 * its parent's (0: none), 2 the id minus its root's, 3 context, 4 start time minus the id's
 * millisecond, 5 duration in µs, 6 flags (1 arguments cut, 2 output cut, 4 has an output, 8
 * failed, 16 has errors), 7 arguments, then the output (flag 4) and the errors (flag 16).
 *
 * @example
 * decodeBatch(row.runs).filter((run) => run.outcome === 'failed');
 */
export function decodeBatch(text: string): RawRun[] {
  const parsed = JSON.parse(text) as RawRun[] | CompactBatch | CompactBatchV2;
  if (Array.isArray(parsed)) return parsed;
  if (parsed.v === 2) return decodeV2(parsed);
  const { base, strings } = parsed;
  const contexts = parsed.contexts.map((c) => contextOf(strings, c));
  return parsed.runs.map((r) => {
    const id = (r[0] as number) + base;
    const context = contexts[r[3] as number]!;
    const flags = r[SLOT.flags] as number;
    let next = SLOT.args + 1;
    const output = flags & FLAG.hasOutput ? r[next++] : undefined;
    return {
      id,
      parent_id: r[1] === 0 ? null : id - (r[1] as number),
      root_id: id - (r[2] as number),
      ...context,
      started_at: Math.floor(id / 1024) + (r[4] as number),
      duration_ms: (r[5] as number) / 1000,
      outcome: flags & FLAG.failed ? 'failed' : 'ok',
      errors: flags & FLAG.hasErrors ? (r[next] as string[]) : [],
      args: r[SLOT.args],
      args_truncated: (flags & FLAG.argsCut) !== 0,
      output,
      output_truncated: (flags & FLAG.outputCut) !== 0,
    };
  });
}

/** What the runs of a batch share: the fields of a format 3 context. */
export type RunContext = ReturnType<typeof contextOf>;

/**
 * The contexts of a format 3 batch, read without parsing its runs (undefined for other formats):
 * a filter on what runs share (action, origin, hook, cron, event) skips a batch none of whose
 * contexts match, without making its runs. Decoding 100,000 runs only to drop them made young
 * garbage enough for 20-50 ms scavenges.
 *
 * @example
 * batchContexts(row.runs)?.some((c) => c.transport === 'cron');
 */
export function batchContexts(text: string): RunContext[] | undefined {
  // The writer puts `runs` last, after arrays of strings and numbers only: the first `,"runs":`
  // is that key (a quote inside a string is escaped, and no string is followed by a colon).
  if (!text.startsWith('{"v":3,')) return undefined;
  const end = text.indexOf(',"runs":');
  if (end < 0) return undefined;
  const head = JSON.parse(`${text.slice(0, end)}}`) as Omit<CompactBatch, 'runs'>;
  return head.contexts.map((c) => contextOf(head.strings, c));
}

// Slots of a format 2 run: 0 id, 1 parent id (null: none), 2 root id (all three as offsets from
// `base`), 3 kind, 4 name, 5 transport, 6-8 caller user, via and token id, 9-12 hook, cron, event
// id and event type (strings, -1: none), 13 start time minus the id's millisecond, 14 duration in
// µs, 15 failed (0/1), 16 error code, 17 errors (0: none), 18 the replayed run's id (a string;
// -1: none), 19 flags (1 arguments cut, 2 output cut, 4 has an output), 20 arguments, 21 output.
function decodeV2(parsed: CompactBatchV2): RawRun[] {
  const { base, strings } = parsed;
  return parsed.runs.map((r) => {
    const id = (r[0] as number) + base;
    const flags = r[19] as number;
    // Slots 3-12, 16 and 18 hold what format 3 writes as a context, in its order.
    const shared = [...r.slice(3, 13), r[16], r[18]];
    return {
      id,
      parent_id: r[1] === null ? null : (r[1] as number) + base,
      root_id: (r[2] as number) + base,
      ...contextOf(strings, shared),
      started_at: Math.floor(id / 1024) + (r[13] as number),
      duration_ms: (r[14] as number) / 1000,
      outcome: r[15] === 1 ? 'failed' : 'ok',
      errors: Array.isArray(r[17]) ? (r[17] as string[]) : [],
      args: r[20],
      args_truncated: (flags & 1) !== 0,
      output: flags & 4 ? r[21] : undefined,
      output_truncated: (flags & 2) !== 0,
    };
  });
}

/** What a run shares with others of its batch, from format 3's context (string indexes, -1: none). */
function contextOf(strings: string[], c: unknown[]) {
  const str = (i: unknown) => (typeof i === 'number' && i >= 0 ? strings[i] : undefined);
  const user = str(c[3]);
  const [hook, cron, event_id, event_type] = [str(c[6]), str(c[7]), str(c[8]), str(c[9])];
  const replayed = str(c[11]);
  return {
    kind: str(c[0]) ?? 'action',
    name: str(c[1]) ?? '',
    transport: str(c[2]) ?? '',
    caller: user === undefined ? null : { user, via: str(c[4]), token_id: str(c[5]) },
    trigger: (hook ?? cron ?? event_id ?? event_type) ? { hook, cron, event_id, event_type } : null,
    error_code: str(c[10]) ?? null,
    replay_of: replayed === undefined ? null : Number(replayed),
  };
}

/**
 * A stored run as `runs.list` shows it; `tokenName` turns the caller's token id into the token's
 * current name (the token itself is never stored).
 *
 * @example
 * toStored(raw, 0, (id) => tokens.get(id)?.name);
 */
export function toStored(
  raw: RawRun,
  steps: number,
  tokenName: (id: string) => string | undefined,
): StoredRun {
  const t = raw.trigger;
  const trigger = t
    ? {
        ...(t.hook ? { hook: t.hook } : {}),
        ...(t.cron ? { cron: t.cron } : {}),
        ...(t.event_id ? { event_id: t.event_id } : {}),
        ...(t.event_type ? { event_type: t.event_type } : {}),
      }
    : {};
  const token = raw.caller?.token_id ? tokenName(raw.caller.token_id) : undefined;
  return {
    id: String(raw.id),
    parent_id: raw.parent_id == null ? null : String(raw.parent_id),
    root_id: String(raw.root_id ?? raw.id),
    kind: raw.kind,
    name: raw.name,
    transport: raw.transport,
    caller: raw.caller?.user
      ? { user: raw.caller.user, via: raw.caller.via ?? 'unknown', ...(token ? { token } : {}) }
      : null,
    trigger: Object.keys(trigger).length ? trigger : null,
    // Cut arguments are the start of their JSON text: shown as such, never half-parsed.
    args: raw.args_truncated
      ? { _truncated: raw.args }
      : ((raw.args ?? {}) as Record<string, unknown>),
    started_at: new Date(raw.started_at).toISOString(),
    duration_ms: raw.duration_ms,
    outcome: raw.outcome,
    error_code: raw.error_code ?? null,
    errors: raw.errors ?? [],
    replay_of: raw.replay_of == null ? null : String(raw.replay_of),
    steps,
  };
}

/**
 * A stored run with its output (`runs.get`).
 *
 * @example
 * toDetail(raw, 2, tokenName).output; // { text: 'hi' }
 */
export function toDetail(
  raw: RawRun,
  steps: number,
  tokenName: (id: string) => string | undefined,
): StoredRunDetail {
  return {
    ...toStored(raw, steps, tokenName),
    output: raw.output ?? null,
    output_truncated: raw.output_truncated === true,
  };
}
