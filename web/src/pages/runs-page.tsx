import { useMemo, useState } from 'preact/hooks';
import { ErrorList } from '../components/error-list.tsx';
import { RunFilters } from '../components/run-filters.tsx';
import { RunTable } from '../components/run-table.tsx';
import { RunsEmpty } from '../components/runs-empty.tsx';
import { replaceQuery, useSearch } from '../lib/router.ts';
import { compareRunIds, hasFilters, parseRunFilters, runFiltersQuery } from '../lib/runs.ts';
import { useRunsFeed } from '../lib/use-runs-feed.ts';
import { RunPage } from './run-page.tsx';

// The list's last query, so that a run's "All runs" link goes back to the view it came from.
let lastListQuery = '';

function RunsList() {
  const search = useSearch();
  const filters = useMemo(() => parseRunFilters(search), [search]);
  const key = runFiltersQuery(filters);
  lastListQuery = key;
  const feed = useRunsFeed(filters, key);
  const { runs, more } = feed.view;
  // While the pointer is on the list, new runs wait above it: rows that move down every second
  // under the pointer would make a click open the wrong run.
  const [hold, setHold] = useState<{ key: string; top: string } | null>(null);
  const top = hold?.key === key ? hold.top : undefined;
  const shown = top === undefined ? runs : runs.filter((r) => compareRunIds(r.id, top) <= 0);
  const waiting = runs.length - shown.length;

  return (
    <>
      <div class="page-header">
        <h1>Runs</h1>
        <p class="muted">
          Every action, procedure, hook and cron run of this instance, newest first.{' '}
          <span
            class={`pill ${feed.errors.length ? 'pill-closed' : 'pill-open'}`}
            title="The list updates by itself while this page is open"
          >
            {feed.errors.length ? 'Not updating' : 'Live'}
          </span>
        </p>
      </div>
      <RunFilters filters={filters} onChange={(f) => replaceQuery(runFiltersQuery(f))} />
      <ErrorList title="The runs could not be loaded" errors={feed.errors} />
      {!feed.loaded ? (
        <p class="muted" role="status">
          Loading runs…
        </p>
      ) : runs.length === 0 ? (
        feed.errors.length ? null : (
          <RunsEmpty filtered={hasFilters(filters)} onClear={() => replaceQuery('')} />
        )
      ) : (
        <>
          <p class="muted small runs-count">
            {shown.length} run{shown.length === 1 ? '' : 's'} shown
            {more ? ', older ones below' : ''}
            {waiting ? (
              <strong>
                {' '}
                · {waiting} new run{waiting === 1 ? '' : 's'} held while the pointer is on the list
              </strong>
            ) : null}
          </p>
          <div
            onPointerEnter={(e) => {
              // Touch has no hover: a tap is over before it could matter.
              if (e.pointerType === 'mouse' && runs[0]) setHold({ key, top: runs[0].id });
            }}
            onPointerLeave={() => setHold(null)}
          >
            <RunTable runs={shown} />
          </div>
          {more ? (
            <div class="button-row runs-more">
              <button
                type="button"
                class="button button-secondary"
                disabled={feed.loadingOlder}
                onClick={feed.loadOlder}
              >
                {feed.loadingOlder ? 'Loading…' : 'Load older'}
              </button>
            </div>
          ) : null}
        </>
      )}
    </>
  );
}

/**
 * Runs: the live list of recorded runs with its filters (`/runs?outcome=failed…`), and each run at
 * its own address (`/runs/<id>`).
 *
 * @example
 * <RunsPage path="/runs/mf3k2p0a1-3fa2c1-0007" />
 */
export function RunsPage({ path }: { path: string }) {
  const id = path.startsWith('/runs/') ? decodeURIComponent(path.slice('/runs/'.length)) : '';
  if (id) return <RunPage id={id} listHref={`/runs${lastListQuery}`} />;
  return <RunsList />;
}
