import { shortKind } from '../lib/events.ts';
import { callerText, ORIGINS, runDuration } from '../lib/runs.ts';
import type { RunTree } from '../lib/runs.ts';
import { AppLink } from './app-link.tsx';

function transportLabel(transport: string): string {
  return ORIGINS.find((o) => o.value === transport)?.label ?? transport;
}

function runLink(id: string) {
  return (
    <AppLink href={`/runs/${encodeURIComponent(id)}`}>
      <code class="wrap">{id}</code>
    </AppLink>
  );
}

/**
 * The facts of one run: when, how long, who, what started it (hook, cron, the event behind it),
 * what it replays and what it is a step of, with links to the related runs.
 *
 * @example
 * <RunFacts run={tree} />
 */
export function RunFacts({ run }: { run: RunTree }) {
  const trigger = run.trigger;
  const started = new Date(run.started_at);
  return (
    <dl class="facts run-facts">
      <div>
        <dt>Started</dt>
        <dd>
          <time dateTime={run.started_at}>
            {started.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })}
          </time>
        </dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>{runDuration(run.duration_ms)}</dd>
      </div>
      <div>
        <dt>Caller</dt>
        <dd>
          {run.caller ? (
            <>
              {callerText(run.caller)} <span class="muted">via {run.caller.via}</span>
            </>
          ) : (
            <span class="muted">Pipit itself (no user asked for it)</span>
          )}
        </dd>
      </div>
      <div>
        <dt>Transport</dt>
        <dd>
          {transportLabel(run.transport)}
          {trigger?.hook ? (
            <>
              {' '}
              · hook{' '}
              <AppLink href={`/runs?hook=${encodeURIComponent(trigger.hook)}`}>
                {trigger.hook}
              </AppLink>
            </>
          ) : null}
          {trigger?.cron ? (
            <>
              {' '}
              · cron{' '}
              <AppLink href={`/runs?cron=${encodeURIComponent(trigger.cron)}`}>
                {trigger.cron}
              </AppLink>
            </>
          ) : null}
        </dd>
      </div>
      {trigger?.event_id ? (
        <div>
          <dt>Event</dt>
          <dd>
            {trigger.event_type ? (
              <span class="badge badge-kind" title={trigger.event_type}>
                {shortKind(trigger.event_type)}
              </span>
            ) : null}{' '}
            <code class="wrap">{trigger.event_id}</code> ·{' '}
            <AppLink href={`/runs?event_id=${encodeURIComponent(trigger.event_id)}`}>
              every run it caused
            </AppLink>
          </dd>
        </div>
      ) : null}
      {run.replay_of ? (
        <div>
          <dt>Replay of</dt>
          <dd>{runLink(run.replay_of)}</dd>
        </div>
      ) : null}
      {run.parent_id ? (
        <div>
          <dt>Step of</dt>
          <dd>{runLink(run.parent_id)}</dd>
        </div>
      ) : null}
      <div>
        <dt>Run id</dt>
        <dd>
          <code class="wrap">{run.id}</code>
        </dd>
      </div>
    </dl>
  );
}
