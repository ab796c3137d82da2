import { formatDuration } from '../lib/format.ts';
import type { RecentRun } from '../lib/recent-runs.ts';

interface RecentRunsListProps {
  runs: RecentRun[];
  onLoad: (run: RecentRun) => void;
  onRerun: (run: RecentRun) => void;
  onClear: () => void;
  disabled: boolean;
}

function argsPreview(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  if (text === '{}') return 'no arguments';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Runs remembered in this browser, newest first, to load into the form or run again. */
export function RecentRunsList({ runs, onLoad, onRerun, onClear, disabled }: RecentRunsListProps) {
  return (
    <section class="card recent" aria-labelledby="recent-title">
      <div class="card-head">
        <h2 id="recent-title">Recent runs</h2>
        {runs.length ? (
          <button type="button" class="button button-ghost button-small" onClick={onClear}>
            Clear history
          </button>
        ) : null}
      </div>
      {runs.length === 0 ? (
        <p class="empty">Runs you make are kept here, in this browser only.</p>
      ) : (
        <ul class="recent-list">
          {runs.map((r) => (
            <li key={`${r.at}-${r.action}`} class="recent-item">
              <div class="recent-main">
                <span class={`dot ${r.ok ? 'dot-ok' : 'dot-error'}`} aria-hidden="true" />
                <span class="visually-hidden">{r.ok ? 'Succeeded: ' : 'Failed: '}</span>
                <code class="recent-action">{r.action}</code>
                <span class="recent-args">{argsPreview(r.args)}</span>
                <span class="recent-meta muted">
                  {new Date(r.at).toLocaleTimeString()} · {formatDuration(r.durationMs)}
                </span>
              </div>
              <div class="recent-buttons">
                <button
                  type="button"
                  class="button button-ghost button-small"
                  aria-label={`Load ${r.action} ${argsPreview(r.args)}`}
                  onClick={() => onLoad(r)}
                >
                  Load
                </button>
                <button
                  type="button"
                  class="button button-secondary button-small"
                  aria-label={`Run ${r.action} ${argsPreview(r.args)} again`}
                  disabled={disabled}
                  onClick={() => onRerun(r)}
                >
                  Re-run
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
