import { useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { replayRun, runBadges } from '../lib/runs.ts';
import type { RunTree } from '../lib/runs.ts';
import { AppLink } from './app-link.tsx';
import { ErrorList } from './error-list.tsx';
import { RunFacts } from './run-facts.tsx';
import { RunTimeline } from './run-timeline.tsx';
import { RunValue } from './run-value.tsx';

interface RunDetailProps {
  run: RunTree;
  /** Where "All runs" goes back to (the list with the filters it had). */
  listHref: string;
  /** Called with the new run once "Run again" has run it. */
  onReplayed: (run: RunTree) => void;
}

function replayHint(run: RunTree): string {
  switch (run.kind) {
    case 'hook':
      return 'Runs this hook again on a copy of its event, as you.';
    case 'cron':
      return 'Runs this cron job now, as you.';
    case 'procedure':
      return 'Runs this procedure again with the same arguments, as you.';
    default:
      return 'Runs this action again with the same arguments, as you.';
  }
}

/**
 * One run: what it was and how it went, its arguments, output and errors, the timeline of its
 * steps, and "Run again".
 *
 * @example
 * <RunDetail run={tree} listHref="/runs" onReplayed={(r) => navigate(`/runs/${r.id}`)} />
 */
export function RunDetail({ run, listHref, onReplayed }: RunDetailProps) {
  const [replaying, setReplaying] = useState(false);
  const [refused, setRefused] = useState<string[]>([]);
  const failed = run.outcome === 'failed';
  // A failed run has no output to show (its errors say it all), and a cron has no arguments: a
  // box that would only say so for both is left out.
  const noOutput = failed && run.output === null;
  const showValues = !noOutput || Object.keys(run.args).length > 0;

  const replay = () => {
    setReplaying(true);
    setRefused([]);
    replayRun(run.id)
      .then(onReplayed)
      .catch((err: unknown) => setRefused(messagesOf(err)))
      .finally(() => setReplaying(false));
  };

  return (
    <>
      <div class="page-header run-header">
        <p class="small">
          <AppLink href={listHref}>← All runs</AppLink>
        </p>
        <div class="run-heading">
          <h1>
            <code class="wrap">{run.name}</code>
          </h1>
          <span class={`pill ${failed ? 'pill-error' : 'pill-ok'}`} role="status">
            {failed ? 'Failed' : 'Succeeded'}
          </span>
          {runBadges(run).map((b) => (
            <span key={b} class={`badge badge-origin badge-origin-${b}`}>
              {b}
            </span>
          ))}
        </div>
        {run.replay_of ? (
          <p class="muted run-replay-note">
            ↻ Replay of{' '}
            <AppLink href={`/runs/${encodeURIComponent(run.replay_of)}`}>
              <code class="wrap">{run.replay_of}</code>
            </AppLink>
          </p>
        ) : null}
      </div>
      <div class="run-layout">
        {/* First in the page (on a phone, on top); beside the rest on a wide screen. */}
        <section class="card run-summary" aria-label="Summary">
          <RunFacts run={run} />
          <div class="button-row">
            <button
              type="button"
              class="button button-primary"
              disabled={replaying}
              onClick={replay}
            >
              {replaying ? 'Running…' : 'Run again'}
            </button>
            <span class="hint">{replayHint(run)}</span>
          </div>
          <ErrorList title="This run cannot be run again" errors={refused} />
        </section>
        <div class="run-main">
          {failed ? (
            <ErrorList
              title={run.error_code ? `Errors (${run.error_code})` : 'Errors'}
              errors={run.errors}
            />
          ) : null}
          {run.children.length ? <RunTimeline run={run} /> : null}
          {showValues ? (
            <section class="card" aria-label="Arguments and output">
              <div class="run-values">
                <RunValue label="Arguments" value={run.args} />
                {noOutput ? null : (
                  <RunValue label="Output" value={run.output} truncated={run.output_truncated} />
                )}
              </div>
            </section>
          ) : null}
        </div>
      </div>
    </>
  );
}
