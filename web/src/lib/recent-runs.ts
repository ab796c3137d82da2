/** One run remembered in the browser, so it can be loaded again or re-run. */
export interface RecentRun {
  action: string;
  args: Record<string, unknown>;
  /** When it ran, milliseconds since the epoch. */
  at: number;
  ok: boolean;
  durationMs: number;
}

/** The part of the Web Storage API the store needs (localStorage in the browser). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const RECENT_RUNS_KEY = 'pipit.recent-runs';
export const RECENT_RUNS_MAX = 20;

function isRun(value: unknown): value is RecentRun {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.action === 'string' &&
    typeof r.args === 'object' &&
    r.args !== null &&
    !Array.isArray(r.args) &&
    typeof r.at === 'number' &&
    typeof r.ok === 'boolean' &&
    typeof r.durationMs === 'number'
  );
}

/**
 * Reads the recent runs, newest first. Anything unreadable (another version's data, a full or
 * disabled storage) gives an empty list rather than breaking the page.
 */
export function loadRecentRuns(storage: KeyValueStorage | undefined): RecentRun[] {
  try {
    const parsed = JSON.parse(storage?.getItem(RECENT_RUNS_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter(isRun).slice(0, RECENT_RUNS_MAX) : [];
  } catch {
    return [];
  }
}

function sameRequest(a: RecentRun, b: RecentRun): boolean {
  return a.action === b.action && JSON.stringify(a.args) === JSON.stringify(b.args);
}

/**
 * Puts a run at the top of the list (replacing an earlier run of the same action and args),
 * keeps at most {@link RECENT_RUNS_MAX}, saves, and returns the new list.
 *
 * @example
 * const runs = addRecentRun(localStorage, { action: 'utils.echo', args: {}, at: Date.now(), ok: true, durationMs: 3 });
 */
export function addRecentRun(storage: KeyValueStorage | undefined, run: RecentRun): RecentRun[] {
  const runs = [run, ...loadRecentRuns(storage).filter((r) => !sameRequest(r, run))].slice(
    0,
    RECENT_RUNS_MAX,
  );
  saveRecentRuns(storage, runs);
  return runs;
}

/** Saves the list; a storage that refuses (quota, private mode) only loses the history. */
export function saveRecentRuns(storage: KeyValueStorage | undefined, runs: RecentRun[]): void {
  try {
    storage?.setItem(RECENT_RUNS_KEY, JSON.stringify(runs));
  } catch {
    // Recent runs are a convenience: never fail a run because they could not be stored.
  }
}
