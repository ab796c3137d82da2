import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messagesOf } from './api.ts';
import { appendOlder, listRuns, mergeNewest } from './runs.ts';
import type { RunFilters, RunsView } from './runs.ts';

/**
 * How often the list asks for new runs while the page is visible. Polling rather than a push:
 * the history is written in batches (~100 ms after a run ends) and no stream announces each run
 * (`/ws/events` only carries the failures of hooks and crons), while `runs.list` is one indexed
 * query that is itself not recorded. 700 ms keeps a new run on screen within a second of its end.
 */
export const POLL_MS = 700;
/** After failed polls the next waits longer (doubling, up to this), so a server down is not hammered. */
const MAX_BACKOFF_MS = 15_000;

/** The live list of runs for a set of filters. */
export interface RunsFeed {
  view: RunsView;
  /** False until the first page has arrived (or failed). */
  loaded: boolean;
  errors: string[];
  loadingOlder: boolean;
  loadOlder: () => void;
}

const EMPTY: RunsView = { runs: [], more: false };

/**
 * Polls `runs.list` every {@link POLL_MS} ms while the document is visible and folds new runs into
 * the list; it pauses when the tab is hidden, polls at once when it shows again, and stops when
 * the page goes. New filters (another `key`) start a new list.
 *
 * @example
 * const feed = useRunsFeed(filters, runFiltersQuery(filters));
 */
export function useRunsFeed(filters: RunFilters, key: string): RunsFeed {
  const [view, setView] = useState<RunsView>(EMPTY);
  const [loaded, setLoaded] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const current = useRef({ key, filters, view });
  current.current = { key, filters, view };

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let failures = 0;
    setView(EMPTY);
    setLoaded(false);
    setErrors([]);

    const schedule = () => {
      if (stopped || document.visibilityState === 'hidden') return;
      timer = setTimeout(poll, Math.min(MAX_BACKOFF_MS, POLL_MS * 2 ** failures));
    };
    // One request at a time: the next is scheduled when this one has answered.
    const poll = () => {
      timer = undefined;
      inFlight = true;
      listRuns(filters)
        .then((page) => {
          if (stopped) return;
          failures = 0;
          setView((v) => mergeNewest(v, page.runs, page.next_before !== null));
          setErrors([]);
        })
        .catch((err: unknown) => {
          if (stopped) return;
          failures = Math.min(failures + 1, 10);
          setErrors(messagesOf(err));
        })
        .finally(() => {
          inFlight = false;
          if (stopped) return;
          setLoaded(true);
          schedule();
        });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        clearTimeout(timer);
        timer = undefined;
      } else if (!timer && !inFlight) poll();
    };
    document.addEventListener('visibilitychange', onVisibility);
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
    // `key` stands for the filters (the same filters always give the same key): a new object
    // with the same filters, at every render, must not restart the polling.
  }, [key]);

  const loadOlder = useCallback(() => {
    const started = current.current;
    const oldest = started.view.runs.at(-1)?.id;
    if (!oldest) return;
    setLoadingOlder(true);
    listRuns(started.filters, oldest)
      .then((page) => {
        // Filters changed meanwhile: this page belongs to a list that is gone.
        if (current.current.key !== started.key) return;
        setView((v) => appendOlder(v, page.runs, page.next_before));
        setErrors([]);
      })
      .catch((err: unknown) => {
        if (current.current.key === started.key) setErrors(messagesOf(err));
      })
      .finally(() => setLoadingOlder(false));
  }, []);

  return { view, loaded, errors, loadingOlder, loadOlder };
}
