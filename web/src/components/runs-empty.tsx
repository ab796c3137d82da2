import { AppLink } from './app-link.tsx';

/**
 * What the Runs list shows when it has nothing: for a newcomer, what will appear here and how to
 * make a first run; with filters set, that nothing matches them (and the way back).
 *
 * @example
 * <RunsEmpty filtered={hasFilters(filters)} onClear={() => replaceQuery('')} />
 */
export function RunsEmpty({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  if (filtered)
    return (
      <div class="card runs-empty" role="status">
        <h2>No runs match these filters</h2>
        <p class="muted">
          Runs that match appear here as soon as they finish. Older runs may have been pruned (
          <code>runs.max_runs</code>, <code>runs.max_age_days</code>).
        </p>
        <button type="button" class="button button-secondary" onClick={onClear}>
          Clear filters
        </button>
      </div>
    );
  return (
    <div class="card runs-empty" role="status">
      <h2>No runs yet</h2>
      <p>
        Every action and procedure this instance runs will be listed here, whatever started it: the
        Execute tab, the HTTP API, a WebSocket client, the command line, a script, a hook, a web
        hook or a cron. Each run keeps its arguments (secrets masked), its output, its errors and,
        for a procedure, hook or cron, each of its steps — and can be run again.
      </p>
      <p>
        Make a first run: open <AppLink href="/execute">Execute</AppLink>, choose{' '}
        <code>utils.echo</code> and press Run. It shows up here within a second.
      </p>
    </div>
  );
}
