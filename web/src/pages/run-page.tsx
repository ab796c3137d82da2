import { useEffect, useState } from 'preact/hooks';
import { AppLink } from '../components/app-link.tsx';
import { ErrorList } from '../components/error-list.tsx';
import { RunDetail } from '../components/run-detail.tsx';
import { messagesOf } from '../lib/api.ts';
import { navigate } from '../lib/router.ts';
import { getRun } from '../lib/runs.ts';
import type { RunTree } from '../lib/runs.ts';

type State =
  { state: 'loading' } | { state: 'error'; errors: string[] } | { state: 'ready'; run: RunTree };

/**
 * One run at its own address (`/runs/<id>`). A finished run does not change, so it is loaded once;
 * "Run again" goes to the new run's address.
 *
 * @example
 * <RunPage id="mf3k2p0a1-3fa2c1-0007" listHref="/runs?outcome=failed" />
 */
export function RunPage({ id, listHref }: { id: string; listHref: string }) {
  const [state, setState] = useState<State>({ state: 'loading' });

  useEffect(() => {
    let gone = false;
    setState({ state: 'loading' });
    getRun(id)
      .then((run) => {
        if (!gone) setState({ state: 'ready', run });
      })
      .catch((err: unknown) => {
        if (!gone) setState({ state: 'error', errors: messagesOf(err) });
      });
    return () => {
      gone = true;
    };
  }, [id]);

  useEffect(() => {
    if (state.state === 'ready') document.title = `${state.run.name} · Runs · Pipit`;
  }, [state]);

  if (state.state === 'loading')
    return (
      <p class="muted" role="status">
        Loading the run…
      </p>
    );
  if (state.state === 'error')
    return (
      <>
        <div class="page-header">
          <p class="small">
            <AppLink href={listHref}>← All runs</AppLink>
          </p>
          <h1>Run</h1>
        </div>
        <ErrorList title="This run could not be loaded" errors={state.errors} />
      </>
    );
  return (
    <RunDetail
      run={state.run}
      listHref={listHref}
      onReplayed={(run) => navigate(`/runs/${encodeURIComponent(run.id)}`)}
    />
  );
}
