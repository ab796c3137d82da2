import { useEffect, useState } from 'preact/hooks';
import type { FunctionComponent } from 'preact';
import { ErrorList } from '../components/error-list.tsx';

type Page = FunctionComponent<{ path: string }>;

// Loaded once, then kept: coming back to the page renders it at once.
let loaded: Page | null = null;

/**
 * The Automations pages, fetched the first time one is opened (a separate chunk, as the editor's
 * CodeMirror is), so that the other pages do not download them.
 *
 * @example
 * <AutomationsLazy path="/automations" />
 */
export function AutomationsLazy({ path }: { path: string }) {
  const [page, setPage] = useState<Page | null>(() => loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (page) return;
    let gone = false;
    import('./automations-page.tsx')
      .then((m) => {
        loaded = m.AutomationsPage;
        if (!gone) setPage(() => m.AutomationsPage);
      })
      .catch(() => !gone && setFailed(true));
    return () => {
      gone = true;
    };
  }, [page]);
  if (failed)
    return (
      <ErrorList
        title="The Automations page could not be loaded"
        errors={['Reload the page to try again (Pipit may have been updated meanwhile).']}
      />
    );
  if (!page)
    return (
      <p class="muted" role="status">
        Loading…
      </p>
    );
  const Automations = page;
  return <Automations path={path} />;
}
