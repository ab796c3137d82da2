import type { AutomationRun, AutomationSummary } from '../lib/automations.ts';
import { asSentence } from '../lib/format.ts';
import { runTime } from '../lib/runs.ts';
import { AppLink } from './app-link.tsx';
import { CopyButton } from './copy-button.tsx';

/** Where an automation is written: `config.yaml:12` or the script's file (full path in the title). */
export function SourceText({ source }: { source: AutomationSummary['source'] }) {
  const base = source.file.split(/[\\/]/).pop() ?? source.file;
  return (
    <code class="automation-source" title={source.file}>
      {source.type === 'yaml' ? `${base}:${source.line}` : base}
    </code>
  );
}

/** A run's outcome and start, linking to the run on the Runs page. */
export function RunLink({ run }: { run: AutomationRun }) {
  const failed = run.outcome === 'failed';
  return (
    <AppLink
      href={`/runs/${encodeURIComponent(run.id)}`}
      class="automation-run"
      title={run.error ? asSentence(run.error) : undefined}
    >
      <span class={`dot ${failed ? 'dot-error' : 'dot-ok'}`} aria-hidden="true" />
      {failed ? 'Failed' : 'Succeeded'}{' '}
      <time dateTime={run.started_at}>{runTime(run.started_at)}</time>
    </AppLink>
  );
}

/**
 * A date in the browser's time zone, naming the zone (`27 Nov 2026, 07:00:00 CET`). The fields are
 * spelt out: `dateStyle` cannot be combined with `timeZoneName` (a RangeError).
 */
export function localTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });
}

/**
 * The facts of an automation that depend on its kind: its last run, a cron's schedule and next
 * run, a web hook's address (with a copy button), an event hook's condition in words.
 *
 * @example
 * <AutomationFacts automation={a} />
 */
export function AutomationFacts({ automation: a }: { automation: AutomationSummary }) {
  const url = a.url ? new URL(a.url, location.origin).href : null;
  return (
    <dl class="automation-facts">
      <div>
        <dt>Defined in</dt>
        <dd>
          <SourceText source={a.source} />
        </dd>
      </div>
      <div>
        <dt>Last run</dt>
        <dd>{a.last_run ? <RunLink run={a.last_run} /> : <span class="muted">never</span>}</dd>
      </div>
      {a.kind === 'cron' ? (
        <>
          <div>
            <dt>Schedule</dt>
            <dd>
              <code>{a.schedule}</code>
              {a.timezone ? <span class="muted"> ({a.timezone})</span> : null}
            </dd>
          </div>
          <div>
            <dt>Next run</dt>
            <dd>
              {a.next_run ? (
                <time dateTime={a.next_run}>{localTime(a.next_run)}</time>
              ) : (
                <span class="muted">{a.enabled ? 'none' : 'none (disabled)'}</span>
              )}
            </dd>
          </div>
        </>
      ) : null}
      {url ? (
        <div class="automation-url">
          <dt>URL</dt>
          <dd>
            <code>{url}</code>
            <CopyButton text={url} label="Copy URL" class="button-small" />
          </dd>
        </div>
      ) : null}
      {a.condition ? (
        <div class="automation-condition">
          <dt>Runs</dt>
          <dd>{a.condition}</dd>
        </div>
      ) : null}
      {a.kind === 'procedure' && a.params.length ? (
        <div>
          <dt>Parameters</dt>
          <dd>
            {a.params.map((p, i) => (
              <span key={p.name}>
                {i ? ', ' : ''}
                <code>{p.name}</code>
                {p.required ? null : <span class="muted"> = {JSON.stringify(p.default)}</span>}
              </span>
            ))}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
