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

/** The live events, newest first. */
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
        return (
          <li key={e.seq} class="event-item">
            <div class="event-head">
              <span class="badge badge-kind" title={m.args.type}>
                {shortKind(m.args.type)}
              </span>
              {m.args.subtype ? <strong class="event-subtype">{m.args.subtype}</strong> : null}
              <span class="muted event-meta">
                <time dateTime={time.toISOString()}>{time.toLocaleTimeString()}</time>
                {m.origin ? ` · ${m.origin}` : ''}
              </span>
              {m.id ? (
                <AppLink
                  href={`/runs?event_id=${encodeURIComponent(m.id)}`}
                  class="event-runs"
                  title="The hook runs this event caused, and their steps"
                >
                  Runs
                </AppLink>
              ) : null}
            </div>
            {empty ? null : <pre class="code event-payload">{prettyJson(payload)}</pre>}
          </li>
        );
      })}
    </ol>
  );
}
