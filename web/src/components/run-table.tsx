import { asSentence } from '../lib/format.ts';
import { navigate } from '../lib/router.ts';
import { callerText, runBadges, runDuration, runTime } from '../lib/runs.ts';
import type { StoredRun } from '../lib/runs.ts';
import { AppLink } from './app-link.tsx';

/** A run id short enough for a marker in a row (the whole id is in its title). */
function shortId(id: string): string {
  return id.length > 16 ? `…${id.slice(-12)}` : id;
}

function RunRow({ run }: { run: StoredRun }) {
  const failed = run.outcome === 'failed';
  const href = `/runs/${encodeURIComponent(run.id)}`;
  return (
    // The whole row opens the run (a wide target, also on a phone's card); the name is the link
    // that keyboards and screen readers use.
    <tr class={`run-row${failed ? ' run-failed' : ''}`} onClick={() => navigate(href)}>
      <td class="run-cell-time" data-label="Started">
        <time dateTime={run.started_at} title={new Date(run.started_at).toLocaleString()}>
          {runTime(run.started_at)}
        </time>
      </td>
      <th scope="row" class="run-what">
        <div class="run-title">
          <AppLink href={href} class="run-name">
            {run.name}
          </AppLink>
          {runBadges(run).map((b) => (
            <span key={b} class={`badge badge-origin badge-origin-${b}`}>
              {b}
            </span>
          ))}
          {run.parent_id ? <span class="badge">step</span> : null}
          {run.steps ? (
            <span class="muted small">
              {run.steps} step{run.steps === 1 ? '' : 's'}
            </span>
          ) : null}
          {run.replay_of ? (
            <span class="badge badge-replay" title={`A replay of run ${run.replay_of}`}>
              ↻ replay of {shortId(run.replay_of)}
            </span>
          ) : null}
        </div>
        {failed && run.errors[0] ? <p class="run-error">{asSentence(run.errors[0])}</p> : null}
      </th>
      <td data-label="Caller" class="run-cell-caller">
        {run.caller ? (
          <>
            {run.caller.user}
            {run.caller.token ? (
              <span class="run-caller-token" title={callerText(run.caller)}>
                token “{run.caller.token}”
              </span>
            ) : null}
          </>
        ) : (
          <span title="Pipit itself: a cron, or a hook on an event">—</span>
        )}
      </td>
      <td data-label="Duration" class="run-cell-duration">
        {runDuration(run.duration_ms)}
      </td>
      <td data-label="Outcome">
        <span class={`pill ${failed ? 'pill-error' : 'pill-ok'}`}>
          {failed ? 'Failed' : 'Succeeded'}
        </span>
      </td>
    </tr>
  );
}

/**
 * The runs, newest first: a table on wide screens, a card per run on phones (runs.css).
 *
 * @example
 * <RunTable runs={view.runs} />
 */
export function RunTable({ runs }: { runs: StoredRun[] }) {
  return (
    <div class="table-wrap">
      <table class="table run-table">
        <caption class="visually-hidden">Runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Run</th>
            <th scope="col">Caller</th>
            <th scope="col">Duration</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <RunRow key={r.id} run={r} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
