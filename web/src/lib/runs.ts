import { api, ApiError } from './api.ts';
import type { ResponseMessage } from './api.ts';
import { formatDuration } from './format.ts';

// The shapes the server answers, from its own definitions (type-only: nothing is bundled).
import type { RunTree } from '../../../src/plugins/runs/get.ts';
import type { StoredRun, StoredRunDetail } from '../../../src/store/runs.ts';

export type { RunTree, StoredRun, StoredRunDetail };

/** What the Runs page filters on; each is a query parameter of its address. */
export interface RunFilters {
  outcome?: 'ok' | 'failed' | undefined;
  /** The transport: http, ws, cli, library, hook, webhook, cron, procedure, replay. */
  transport?: string | undefined;
  /** An exact action, procedure, hook or cron name. */
  action?: string | undefined;
  /** Text anywhere in the name, arguments, errors or output. */
  text?: string | undefined;
  hook?: string | undefined;
  cron?: string | undefined;
  event_id?: string | undefined;
}

/** The filter keys, in the order they are written into an address. */
export const FILTER_KEYS = [
  'outcome',
  'transport',
  'action',
  'text',
  'hook',
  'cron',
  'event_id',
] as const satisfies readonly (keyof RunFilters)[];

/** The transports the filter offers, with the words the page uses for them. */
export const ORIGINS: readonly { value: string; label: string }[] = [
  { value: 'http', label: 'HTTP' },
  { value: 'ws', label: 'WebSocket' },
  { value: 'cli', label: 'Command line' },
  { value: 'library', label: 'Library (run())' },
  { value: 'hook', label: 'Hook' },
  { value: 'webhook', label: 'Web hook' },
  { value: 'cron', label: 'Cron' },
  { value: 'procedure', label: 'Procedure' },
  { value: 'replay', label: 'Replay' },
];

/** The first page, and each older page: what one poll costs the server. */
export const PAGE_SIZE = 50;
/** The most runs the list holds: a page left open on a busy instance must not grow forever. */
export const MAX_SHOWN = 500;

/**
 * The filters in an address's query; unknown keys and empty values are ignored.
 *
 * @example
 * parseRunFilters('?outcome=failed&transport=cron'); // {outcome: 'failed', transport: 'cron'}
 */
export function parseRunFilters(search: string): RunFilters {
  const params = new URLSearchParams(search);
  const filters: RunFilters = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (!value) continue;
    if (key === 'outcome') {
      if (value === 'ok' || value === 'failed') filters.outcome = value;
    } else filters[key] = value;
  }
  return filters;
}

/**
 * The query that holds these filters (`?outcome=failed`), or '' when there are none; the same
 * filters always give the same text, so it doubles as their identity.
 *
 * @example
 * runFiltersQuery({ transport: 'cron', outcome: 'failed' }); // '?outcome=failed&transport=cron'
 */
export function runFiltersQuery(filters: RunFilters): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key]?.trim();
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** True when any filter is set. */
export function hasFilters(filters: RunFilters): boolean {
  return runFiltersQuery(filters) !== '';
}

/** The runs that were loaded, newest first, and whether older ones remain on the server. */
export interface RunsView {
  runs: StoredRun[];
  more: boolean;
}

/**
 * Orders run ids as the server does (by start): ids are numbers written as text, so a shorter one
 * is the smaller, and ids of one length compare as text.
 *
 * @example
 * compareRunIds('999', '1000'); // -1
 */
export function compareRunIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function byIdDesc(a: StoredRun, b: StoredRun): number {
  return compareRunIds(b.id, a.id);
}

function capped(runs: StoredRun[], more: boolean): RunsView {
  return runs.length > MAX_SHOWN ? { runs: runs.slice(0, MAX_SHOWN), more: true } : { runs, more };
}

/**
 * Folds a fresh first page into the list. Runs already shown stay (older pages included) and new
 * ones go on top; when the page is full and shares no run with the list, more runs came than a page
 * holds and the list would have a hole, so it starts again from that page.
 *
 * @example
 * view = mergeNewest(view, page.runs, page.next_before !== null);
 */
export function mergeNewest(view: RunsView, page: StoredRun[], pageFull: boolean): RunsView {
  if (!view.runs.length) return { runs: page, more: pageFull };
  const known = new Set(view.runs.map((r) => r.id));
  if (pageFull && !page.some((r) => known.has(r.id))) return { runs: page, more: true };
  const fresh = new Map(page.map((r) => [r.id, r]));
  const kept = view.runs.map((r) => fresh.get(r.id) ?? r);
  const added = page.filter((r) => !known.has(r.id));
  return capped([...added, ...kept].sort(byIdDesc), view.more);
}

/**
 * Adds an older page (from "Load older") below the list.
 *
 * @example
 * view = appendOlder(view, page.runs, page.next_before);
 */
export function appendOlder(
  view: RunsView,
  page: StoredRun[],
  nextBefore: string | null,
): RunsView {
  const known = new Set(view.runs.map((r) => r.id));
  const runs = [...view.runs, ...page.filter((r) => !known.has(r.id))].sort(byIdDesc);
  return capped(runs, nextBefore !== null);
}

async function runAction<T>(action: string, args: Record<string, unknown>): Promise<T> {
  const res = await api<ResponseMessage>('POST', '/execute', { type: 'request', action, args });
  const errors = res.response?.errors ?? [];
  // An action's failure is an HTTP 200 with errors: it is shown like any other API error.
  if (errors.length) throw new ApiError(200, errors);
  return res.response?.output as T;
}

/**
 * One page of runs, newest first (`before`: the page after that run id).
 *
 * @example
 * const { runs, next_before } = await listRuns({ outcome: 'failed' });
 */
export function listRuns(
  filters: RunFilters,
  before?: string,
  limit = PAGE_SIZE,
): Promise<{ runs: StoredRun[]; next_before: string | null }> {
  const args: Record<string, unknown> = { limit };
  for (const key of FILTER_KEYS) if (filters[key]) args[key] = filters[key];
  if (before) args.before = before;
  return runAction('runs.list', args);
}

/** One run with its output and its steps. */
export function getRun(id: string): Promise<RunTree> {
  return runAction('runs.get', { id });
}

/** Runs a recorded run again (as the signed-in user) and returns the new run. */
export function replayRun(id: string): Promise<RunTree> {
  return runAction('runs.replay', { id });
}

/**
 * The labels that say what a run is and what started it: its kind unless a plain action, then
 * its transport (`['cron']`, `['procedure', 'http']`, `['webhook']`).
 *
 * @example
 * runBadges({ kind: 'hook', transport: 'webhook' }); // ['hook', 'webhook']
 */
export function runBadges(run: Pick<StoredRun, 'kind' | 'transport'>): string[] {
  const badges = run.kind === 'action' ? [] : [run.kind];
  if (!badges.includes(run.transport)) badges.push(run.transport);
  return badges;
}

/** Who ran it: `ada`, `ada (token "ci")`, or a dash for Pipit itself (a cron, a hook). */
export function callerText(caller: StoredRun['caller']): string {
  if (!caller) return '—';
  return caller.token ? `${caller.user} (token “${caller.token}”)` : caller.user;
}

/** A run's duration: `< 1 ms` for the quick ones, else as {@link formatDuration}. */
export function runDuration(ms: number): string {
  return ms < 1 ? '< 1 ms' : formatDuration(ms);
}

/** When a run started: the time alone today, the date and time otherwise. */
export function runTime(iso: string, now = new Date()): string {
  const at = new Date(iso);
  return at.toDateString() === now.toDateString()
    ? at.toLocaleTimeString()
    : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The marker of masked values in recorded arguments (the server's `REDACTED`). */
export const MASKED = '[redacted]';

/** True when a value holds a masked secret somewhere. */
export function hasMasked(value: unknown): boolean {
  if (value === MASKED) return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(hasMasked);
}

/** How many runs a tree holds below its root (steps of steps included). */
export function countSteps(run: RunTree): number {
  return run.children.reduce((n, c) => n + 1 + countSteps(c), 0);
}
