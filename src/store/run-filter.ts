import type { SQLInputValue } from 'node:sqlite';
import { runIdAt } from '../core/runs.ts';
import { batchContexts } from './run-codec.ts';
import type { RawRun, RunContext } from './run-codec.ts';

/** What `runs.list` filters on; every field narrows the list. */
export interface RunFilter {
  action?: string | undefined;
  outcome?: 'ok' | 'failed' | undefined;
  /** The transport: http, ws, cli, library, hook, webhook, cron, procedure. */
  transport?: string | undefined;
  hook?: string | undefined;
  cron?: string | undefined;
  event_id?: string | undefined;
  /** Epoch ms, inclusive. */
  since?: number | undefined;
  /** Epoch ms, exclusive. */
  until?: number | undefined;
  /** Substring of the name, arguments, errors or output (any case). */
  text?: string | undefined;
  /** Also list procedure, hook and cron steps (default: only what was asked for or triggered). */
  include_steps?: boolean | undefined;
  /** Runs that started before this run id (the next page). */
  before?: string | undefined;
  limit: number;
}

/** A filter made ready for a scan of the history's batches, newest first. */
export interface CompiledFilter {
  /** SQL conditions on `run_batches` that skip batches unparsed (joined with AND), and their values. */
  where: string[];
  params: SQLInputValue[];
  /** The lowest run id wanted (-Infinity: no bound). */
  sinceId: number;
  /** Run ids wanted are below this (Infinity: no bound). */
  below: number;
  /**
   * False when a batch's JSON text cannot hold a match (checked before it is parsed): the `text`
   * filter's needle is not in it, or no context its runs share has the action, transport, hook, cron
   * or event asked for.
   */
  batchMayMatch(text: string): boolean;
  /** True when a run of a parsed batch is wanted. */
  matches(raw: RawRun): boolean;
}

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return true;
  return false;
}

/** What a run id looks like (core/runs.ts `newRunId`). */
export const RUN_ID = /^\d{1,16}$/;

/**
 * The run id as a number, or -1 when it is not one.
 *
 * @example
 * idNumber('1795434578123776'); // 1795434578123776
 */
export function idNumber(id: string): number {
  return RUN_ID.test(id) ? Number(id) : -1;
}

/**
 * Compiles a `runs.list` filter: SQL conditions that skip batches which cannot hold a match, a
 * check of a batch's text for the `text` filter (in JavaScript, any case, the needle as written
 * and as JSON escapes it, so that text holding `"` or `\` skips batches too), and the per-run test.
 *
 * @example
 * const f = compileFilter({ transport: 'cron', limit: 20 });
 * f.matches(raw); // raw.transport === 'cron' && raw.parent_id == null
 */
export function compileFilter(filter: RunFilter): CompiledFilter {
  const where: string[] = [];
  const params: SQLInputValue[] = [];
  const sinceId = filter.since === undefined ? -Infinity : runIdAt(filter.since);
  const untilId = filter.until === undefined ? Infinity : runIdAt(filter.until);
  const beforeId = filter.before === undefined ? Infinity : idNumber(filter.before);
  const below = Math.min(untilId, beforeId);
  if (below !== Infinity) {
    where.push('min_id < ?');
    params.push(below);
  }
  if (sinceId !== -Infinity) {
    where.push('max_id >= ?');
    params.push(sinceId);
  }
  if (filter.outcome === 'failed') where.push('failed > 0');
  else if (filter.outcome === 'ok') where.push('failed < size');
  // Batches that cannot hold a match are skipped by SQLite, unparsed: a batch's JSON text holds
  // each of these as JSON.stringify writes it.
  for (const value of [
    filter.action,
    filter.transport,
    filter.hook,
    filter.cron,
    filter.event_id,
  ]) {
    if (value === undefined) continue;
    where.push('instr(runs, ?) > 0');
    params.push(JSON.stringify(value));
  }
  const needle = filter.text?.toLowerCase();
  const escaped = needle === undefined ? undefined : JSON.stringify(needle).slice(1, -1);
  if (filter.text !== undefined && escaped === needle) {
    // Only text that JSON writes as it is can be looked for in the JSON (LIKE ignores ASCII case).
    where.push("runs LIKE ? ESCAPE '\\'");
    params.push(`%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  // Control characters are escaped differently by the batches SQLite wrote (format 1): never
  // skipped on their account.
  const checkText = needle !== undefined && !hasControl(needle);
  const shared = [filter.action, filter.transport, filter.hook, filter.cron, filter.event_id];
  const contextMatches = shared.every((v) => v === undefined)
    ? undefined
    : (c: RunContext) =>
        (filter.action === undefined || c.name === filter.action) &&
        (filter.transport === undefined || c.transport === filter.transport) &&
        (filter.hook === undefined || c.trigger?.hook === filter.hook) &&
        (filter.cron === undefined || c.trigger?.cron === filter.cron) &&
        (filter.event_id === undefined || c.trigger?.event_id === filter.event_id);
  return {
    where,
    params,
    sinceId,
    below,
    batchMayMatch: (text) => {
      if (checkText) {
        const lower = text.toLowerCase();
        if (!lower.includes(needle) && !lower.includes(escaped!)) return false;
      }
      if (!contextMatches) return true;
      const contexts = batchContexts(text);
      return contexts === undefined || contexts.some(contextMatches);
    },
    matches: (raw) =>
      raw.id >= sinceId &&
      raw.id < below &&
      (filter.include_steps || raw.parent_id == null) &&
      (filter.action === undefined || raw.name === filter.action) &&
      (filter.outcome === undefined || raw.outcome === filter.outcome) &&
      (filter.transport === undefined || raw.transport === filter.transport) &&
      (filter.hook === undefined || raw.trigger?.hook === filter.hook) &&
      (filter.cron === undefined || raw.trigger?.cron === filter.cron) &&
      (filter.event_id === undefined || raw.trigger?.event_id === filter.event_id) &&
      (needle === undefined || textMatches(raw, needle, escaped!)),
  };
}

/**
 * True when `needle` (lower case) is in the run's name, arguments, errors or output, compared
 * without case: what `runs.list`'s `text` filter matches. Values other than strings are searched
 * in their JSON text, for the needle as written or as JSON writes it (`escaped`): a quote in the
 * needle finds the quote in a string argument.
 *
 * @example
 * textMatches(raw, 'hello', 'hello'); // true for utils.echo {text: 'Hello'}
 */
export function textMatches(raw: RawRun, needle: string, escaped: string): boolean {
  const has = (value: unknown) => {
    if (value === undefined) return false;
    if (typeof value === 'string') return value.toLowerCase().includes(needle);
    const text = JSON.stringify(value).toLowerCase();
    return text.includes(needle) || (escaped !== needle && text.includes(escaped));
  };
  return has(raw.name) || has(raw.args) || has(raw.errors ?? undefined) || has(raw.output);
}
