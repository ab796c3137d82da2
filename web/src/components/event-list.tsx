import { shortKind } from '../lib/events.ts';
import type { EventMessage } from '../lib/events.ts';
import { prettyJson } from '../lib/format.ts';
import { AppLink } from './app-link.tsx';

/** An event as received, with a local sequence number for stable keys. */
export interface ReceivedEvent {
  seq: number;
  receivedAt: number;
  message: EventMessage;
}

function payloadOf(message: EventMessage): unknown {
  const { type: _type, subtype: _subtype, ...rest } = message.args;
  // A custom event's payload is its `args`; other kinds carry their fields beside `type`.
  return 'args' in rest && Object.keys(rest).length === 1 ? rest.args : rest;
}

/** One line of the payload for the collapsed row: compact JSON, cut. */
function preview(payload: unknown, max = 140): string {
  const text = JSON.stringify(payload) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The events, newest first, one compact row each (kind, subtype, a one-line preview, time and
 * origin) that expands to the whole payload: a web hook's body no longer fills the screen.
 */
export function EventList({ events }: { events: ReceivedEvent[] }) {
  if (!events.length) return <p class="empty">No events yet. They appear here as they happen.</p>;
  return (
    <ol class="event-list" aria-label="Events" reversed>
      {events.map((e) => {
        const m = e.message;
        const time = new Date(m._timestamp ? m._timestamp * 1000 : e.receivedAt);
        const payload = payloadOf(m);
        const empty =
          payload === undefined ||
          (typeof payload === 'object' && payload !== null && !Object.keys(payload).length);
        const head = (
          <>
            <span class="badge badge-kind" title={m.args.type}>
              {shortKind(m.args.type)}
            </span>
            {m.args.subtype ? <strong class="event-subtype">{m.args.subtype}</strong> : null}
            {empty ? null : <code class="event-preview">{preview(payload)}</code>}
            <span class="muted event-meta">
              <time dateTime={time.toISOString()}>{time.toLocaleTimeString()}</time>
              {m.origin ? ` · ${m.origin}` : ''}
            </span>
          </>
        );
        const runs = m.id ? (
          <AppLink
            href={`/runs?event_id=${encodeURIComponent(m.id)}`}
            class="event-runs"
            title="The hook runs this event caused, and their steps"
          >
            Runs
          </AppLink>
        ) : null;
        return (
          <li key={e.seq} class="event-item">
            {empty ? (
              <div class="event-head">
                {head}
                {runs}
              </div>
            ) : (
              <details class="event-details">
                <summary class="event-head">
                  {head}
                  {runs}
                </summary>
                <pre class="code event-payload">{prettyJson(payload)}</pre>
              </details>
            )}
          </li>
        );
      })}
    </ol>
  );
}
