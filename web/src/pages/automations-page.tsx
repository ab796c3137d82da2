import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { AppLink } from '../components/app-link.tsx';
import { AutomationFilters } from '../components/automation-filters.tsx';
import { AutomationList } from '../components/automation-list.tsx';
import { AutomationsEmpty } from '../components/automations-empty.tsx';
import { ErrorList } from '../components/error-list.tsx';
import { messagesOf } from '../lib/api.ts';
import {
  automationFiltersQuery,
  listAutomations,
  parseAutomationFilters,
} from '../lib/automations.ts';
import type { AutomationSummary } from '../lib/automations.ts';
import { replaceQuery, useSearch } from '../lib/router.ts';
import { AutomationEditPage } from './automation-edit-page.tsx';
import { AutomationPage } from './automation-page.tsx';

/** How often the list reloads while open: last runs and next runs move on their own. */
const REFRESH_MS = 5000;

function AutomationsList() {
  const search = useSearch();
  const filters = useMemo(() => parseAutomationFilters(search), [search]);
  const key = automationFiltersQuery(filters);
  const [list, setList] = useState<{ key: string; items: AutomationSummary[] } | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    let gone = false;
    listAutomations(filters)
      .then((items) => {
        if (gone) return;
        setList({ key, items });
        setErrors([]);
      })
      .catch((err: unknown) => {
        if (!gone) setErrors(messagesOf(err));
      });
    const timer = setTimeout(reload, REFRESH_MS);
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [key, tick]);

  const items = list?.items ?? [];
  return (
    <>
      <div class="page-header page-header-actions">
        <div>
          <h1>Automations</h1>
          <p class="muted">Procedures, event hooks, web hooks and crons of this instance.</p>
        </div>
        <AppLink href="/automations/new" class="button button-primary">
          New automation
        </AppLink>
      </div>
      <AutomationFilters
        filters={filters}
        onChange={(f) => replaceQuery(automationFiltersQuery(f))}
      />
      <ErrorList title="The automations could not be loaded" errors={errors} />
      {!list ? (
        errors.length ? null : (
          <p class="muted" role="status">
            Loading automations…
          </p>
        )
      ) : items.length === 0 ? (
        <AutomationsEmpty filtered={key !== ''} onClear={() => replaceQuery('')} />
      ) : (
        <>
          <p class="muted small runs-count">
            {items.length} automation{items.length === 1 ? '' : 's'}
          </p>
          <AutomationList automations={items} onChanged={reload} />
        </>
      )}
    </>
  );
}

/**
 * Automations: the list (`/automations?kind=cron…`), a new one from a template
 * (`/automations/new`), one automation (`/automations/<name>`) and its editor (`…/edit`).
 *
 * @example
 * <AutomationsPage path="/automations/cron.Nightly" />
 */
export function AutomationsPage({ path }: { path: string }) {
  const rest = path.startsWith('/automations/')
    ? path.slice('/automations/'.length).replace(/\/$/, '')
    : '';
  if (!rest) return <AutomationsList />;
  if (rest === 'new') return <AutomationEditPage name={null} />;
  if (rest.endsWith('/edit'))
    return <AutomationEditPage name={decodeURIComponent(rest.slice(0, -'/edit'.length))} />;
  return <AutomationPage name={decodeURIComponent(rest)} />;
}
