import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { redactForRecord, redactKeys } from '../core/redact.ts';
import { runIdAt } from '../core/runs.ts';
import type { FinishedRun } from '../core/runs.ts';

/** One stored run as the `runs` plugin shows it (JSON columns parsed, times in ISO 8601). */
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

/** What `runs.list` filters on; every field narrows the list. */
export interface RunFilter {
  action?: string | undefined;
  outcome?: 'ok' | 'failed' | undefined;
  /** The transport: http, ws, cli, library, hook, webhook, cron, procedure. */
  origin?: string | undefined;
  hook?: string | undefined;
  cron?: string | undefined;
  event_id?: string | undefined;
  /** Epoch ms, inclusive. */
  since?: number | undefined;
  /** Epoch ms, exclusive. */
  until?: number | undefined;
  /** Substring of the name, arguments, errors or output. */
  text?: string | undefined;
  /** Also list procedure, hook and cron steps (default: only what was asked for or triggered). */
  include_steps?: boolean | undefined;
  /** Runs that started before this run id (the next page). */
  before?: string | undefined;
  limit: number;
}

interface Row {
  id: number;
  parent_id: number | null;
  root_id: number;
  kind: string;
  name: string;
  transport: string;
  caller_user: string | null;
  caller_via: string | null;
  token_name: string | null;
  hook: string | null;
  cron: string | null;
  event_id: string | null;
  event_type: string | null;
  args: string;
  started_at: number;
  duration_ms: number;
  outcome: 'ok' | 'failed';
  error_code: string | null;
  errors: string;
  replay_of: number | null;
  steps: number;
  output?: string | null;
  output_truncated?: number;
}

const COLUMNS = `r.id, r.parent_id, r.root_id, r.kind, r.name, r.transport, r.caller_user, r.caller_via,
  t.name AS token_name, r.hook, r.cron, r.event_id, r.event_type, r.args, r.started_at, r.duration_ms,
  r.outcome, r.error_code, r.errors, r.replay_of,
  (SELECT count(*) FROM runs c WHERE c.parent_id = r.id) AS steps`;
const FROM = 'FROM runs r LEFT JOIN api_tokens t ON t.id = r.caller_token_id';

/**
 * The run history table: written in batches by the `runs` plugin, read by `runs.list`/`runs.get`.
 *
 * @example
 * const runs = new Runs(db);
 * runs.insert([finished], 16384);
 * runs.list({ outcome: 'failed', limit: 20 });
 */
export class Runs {
  private readonly db: DatabaseSync;
  private readonly insertStmt: StatementSync;
  private readonly synchronous: number;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.synchronous = (
      db.prepare('PRAGMA synchronous').get() as { synchronous: number }
    ).synchronous;
    this.insertStmt = db.prepare(
      `INSERT OR IGNORE INTO runs (id, parent_id, root_id, kind, name, transport, caller_user,
        caller_via, caller_token_id, hook, cron, event_id, event_type, args, started_at, duration_ms,
        outcome, error_code, errors, output, output_truncated, replay_of)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /**
   * Writes finished runs in one transaction; outputs longer than `maxOutputBytes` are cut. The
   * history's commits are not fsynced one by one (`synchronous = NORMAL` in WAL: the checkpoint is),
   * which halves what recording costs a request: a power cut may lose the last runs written, never
   * corrupt the file, and every other write keeps the connection's full durability.
   */
  insert(runs: readonly FinishedRun[], maxOutputBytes: number): void {
    if (!runs.length) return;
    this.db.exec('PRAGMA synchronous = NORMAL');
    try {
      this.insertAll(runs, maxOutputBytes);
    } finally {
      this.db.exec(`PRAGMA synchronous = ${this.synchronous}`);
    }
  }

  private insertAll(runs: readonly FinishedRun[], maxOutputBytes: number): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const run of runs) {
        // Secrets are masked here, at the batched write, off the request's path.
        const output = outputText(redactKeys(run.output), maxOutputBytes);
        this.insertStmt.run(
          Number(run.id),
          run.parent_id === null ? null : Number(run.parent_id),
          Number(run.root_id),
          run.kind,
          run.name,
          run.transport,
          run.caller?.user ?? null,
          run.caller?.via ?? null,
          run.caller?.token_id ?? null,
          run.trigger?.hook ?? null,
          run.trigger?.cron ?? null,
          run.trigger?.event_id ?? null,
          run.trigger?.event_type ?? null,
          jsonText(redactForRecord(run.args, run.params), maxOutputBytes).text,
          run.started_at,
          Math.round(run.duration_ms * 1000) / 1000,
          run.outcome,
          run.error_code,
          run.errors.length ? JSON.stringify(run.errors) : '[]',
          output.text,
          output.truncated ? 1 : 0,
          run.replay_of === null ? null : Number(run.replay_of),
        );
      }
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** Newest first. */
  list(filter: RunFilter): StoredRun[] {
    const where: string[] = [];
    const params: SQLInputValue[] = [];
    const add = (clause: string, ...values: SQLInputValue[]) => {
      where.push(clause);
      params.push(...values);
    };
    if (!filter.include_steps) where.push('r.parent_id IS NULL');
    if (filter.action !== undefined) add('r.name = ?', filter.action);
    if (filter.outcome !== undefined) add('r.outcome = ?', filter.outcome);
    if (filter.origin !== undefined) add('r.transport = ?', filter.origin);
    if (filter.hook !== undefined) add('r.hook = ?', filter.hook);
    if (filter.cron !== undefined) add('r.cron = ?', filter.cron);
    if (filter.event_id !== undefined) add('r.event_id = ?', filter.event_id);
    // Ids are start times (core/runs.ts): time filters are id ranges on the primary key.
    if (filter.since !== undefined) add('r.id >= ?', runIdAt(filter.since));
    if (filter.until !== undefined) add('r.id < ?', runIdAt(filter.until));
    if (filter.before !== undefined) add('r.id < ?', idNumber(filter.before));
    if (filter.text !== undefined) {
      const like = `%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      add(
        "(r.name LIKE ? ESCAPE '\\' OR r.args LIKE ? ESCAPE '\\' OR r.errors LIKE ? ESCAPE '\\' OR r.output LIKE ? ESCAPE '\\')",
        like,
        like,
        like,
        like,
      );
    }
    const sql = `SELECT ${COLUMNS} ${FROM} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY r.id DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...params, filter.limit) as unknown as Row[];
    return rows.map(toStored);
  }

  /** One run with its output, or undefined. */
  get(id: string): StoredRunDetail | undefined {
    if (!RUN_ID.test(id)) return undefined;
    const row = this.db
      .prepare(`SELECT ${COLUMNS}, r.output, r.output_truncated ${FROM} WHERE r.id = ?`)
      .get(idNumber(id)) as Row | undefined;
    return row ? toDetail(row) : undefined;
  }

  /** The steps of a run, in the order they started. */
  children(id: string): StoredRunDetail[] {
    const rows = this.db
      .prepare(
        `SELECT ${COLUMNS}, r.output, r.output_truncated ${FROM} WHERE r.parent_id = ? ORDER BY r.id`,
      )
      .all(idNumber(id)) as unknown as Row[];
    return rows.map(toDetail);
  }

  /**
   * Deletes runs older than `maxAgeMs` and all but the newest `maxCount`; returns how many went.
   * Ids follow start times and a step starts after its run, so the oldest go first, runs before
   * their steps.
   */
  prune(opts: { maxCount: number; maxAgeMs: number; now?: number }): number {
    const cutoff = runIdAt((opts.now ?? Date.now()) - opts.maxAgeMs);
    let deleted = Number(this.db.prepare('DELETE FROM runs WHERE id < ?').run(cutoff).changes);
    const oldestKept = this.db
      .prepare('SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?')
      .get(opts.maxCount - 1) as { id: number } | undefined;
    if (oldestKept)
      deleted += Number(
        this.db.prepare('DELETE FROM runs WHERE id < ?').run(oldestKept.id).changes,
      );
    return deleted;
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
  }
}

/** What a run id looks like (core/runs.ts `newRunId`). */
export const RUN_ID = /^\d{1,16}$/;

function idNumber(id: string): number {
  return RUN_ID.test(id) ? Number(id) : -1;
}

function jsonText(value: unknown, max: number): { text: string; truncated: boolean } {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch (err) {
    // An output that is not JSON (a circular value from a script's run()): say so, keep the run.
    text = JSON.stringify(`[not JSON: ${err instanceof Error ? err.message : String(err)}]`);
  }
  return text.length > max
    ? { text: text.slice(0, max), truncated: true }
    : { text, truncated: false };
}

function outputText(value: unknown, max: number): { text: string | null; truncated: boolean } {
  return value === undefined ? { text: null, truncated: false } : jsonText(value, max);
}

function toStored(row: Row): StoredRun {
  const trigger = {
    ...(row.hook ? { hook: row.hook } : {}),
    ...(row.cron ? { cron: row.cron } : {}),
    ...(row.event_id ? { event_id: row.event_id } : {}),
    ...(row.event_type ? { event_type: row.event_type } : {}),
  };
  return {
    id: String(row.id),
    parent_id: row.parent_id === null ? null : String(row.parent_id),
    root_id: String(row.root_id),
    kind: row.kind,
    name: row.name,
    transport: row.transport,
    caller: row.caller_user
      ? {
          user: row.caller_user,
          via: row.caller_via ?? 'unknown',
          ...(row.token_name ? { token: row.token_name } : {}),
        }
      : null,
    trigger: Object.keys(trigger).length ? trigger : null,
    args: parseOr(row.args, (text) => ({ _truncated: text })) as Record<string, unknown>,
    started_at: new Date(row.started_at).toISOString(),
    duration_ms: row.duration_ms,
    outcome: row.outcome,
    error_code: row.error_code,
    errors: parseOr(row.errors, (text) => [text]) as string[],
    replay_of: row.replay_of === null ? null : String(row.replay_of),
    steps: row.steps,
  };
}

function toDetail(row: Row): StoredRunDetail {
  const truncated = row.output_truncated === 1;
  const text = row.output ?? null;
  return {
    ...toStored(row),
    output: text === null ? null : truncated ? text : parseOr(text, (t) => t),
    output_truncated: truncated,
  };
}

// Arguments are cut like outputs when huge, so a stored column may not parse: show its text then.
function parseOr(text: string, fallback: (text: string) => unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback(text);
  }
}
