import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { EventList } from '../components/event-list.tsx';
import type { ReceivedEvent } from '../components/event-list.tsx';
import { EventSendForm } from '../components/event-send-form.tsx';
import { reportSessionLost } from '../lib/api.ts';
import { appendCapped, customEventFrame, shortKind } from '../lib/events.ts';
import type { EventMessage } from '../lib/events.ts';
import { EventsSocket } from '../lib/events-socket.ts';
import type { SocketState } from '../lib/events-socket.ts';

const MAX_EVENTS = 500;

const STATE_TEXT: Record<SocketState, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  closed: 'Disconnected',
};

/** Events: the live feed of `/ws/events` (filter, pause, clear) and a custom-event sender. */
export function EventsPage() {
  const id = useId();
  const [events, setEvents] = useState<ReceivedEvent[]>([]);
  const [held, setHeld] = useState<ReceivedEvent[]>([]);
  const [paused, setPaused] = useState(false);
  const [kind, setKind] = useState('');
  const [state, setState] = useState<{ state: SocketState; detail?: string }>({
    state: 'connecting',
  });
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const socket = useRef<EventsSocket | undefined>(undefined);
  const pausedRef = useRef(paused);
  const seq = useRef(0);
  // Event ids seen: a reconnect replays the newest events, some of which are on screen already.
  const seen = useRef(new Set<string>());
  pausedRef.current = paused;

  useEffect(() => {
    const s = new EventsSocket({
      onEvent: (message: EventMessage) => {
        if (message.id) {
          if (seen.current.has(message.id)) return;
          seen.current.add(message.id);
          if (seen.current.size > MAX_EVENTS * 4) seen.current = new Set([message.id]);
        }
        const item = { seq: ++seq.current, receivedAt: Date.now(), message };
        // While paused, events are held back (not lost) and shown on resume.
        if (pausedRef.current) setHeld((h) => appendCapped(h, item, MAX_EVENTS));
        else setEvents((list) => appendCapped(list, item, MAX_EVENTS));
      },
      onState: (next, detail) => setState({ state: next, detail }),
      onError: setServerErrors,
      onAuthFailure: reportSessionLost,
    });
    socket.current = s;
    s.start();
    return () => s.stop();
  }, []);

  const kinds = useMemo(
    () => [...new Set([...events, ...held].map((e) => e.message.args.type))].sort(),
    [events, held],
  );
  const shown = useMemo(
    () => events.filter((e) => !kind || e.message.args.type === kind).reverse(),
    [events, kind],
  );

  const resume = () => {
    setEvents((list) => held.reduce((acc, e) => appendCapped(acc, e, MAX_EVENTS), list));
    setHeld([]);
    setPaused(false);
  };

  return (
    <>
      <div class="page-header">
        <h1>Events</h1>
        <p class="muted">
          What happens on this instance, live.{' '}
          <span class={`pill pill-${state.state}`} role="status">
            {STATE_TEXT[state.state]}
            {state.detail ? ` — ${state.detail}` : ''}
          </span>
        </p>
      </div>
      <div class="events-layout">
        <section class="card events-feed" aria-labelledby={`${id}-feed`}>
          <div class="card-head">
            <h2 id={`${id}-feed`}>Live events</h2>
            <div class="toolbar">
              <label for={`${id}-kind`} class="visually-hidden">
                Filter by kind
              </label>
              <select
                id={`${id}-kind`}
                value={kind}
                onChange={(e) => setKind(e.currentTarget.value)}
              >
                <option value="">All kinds</option>
                {kinds.map((k) => (
                  <option key={k} value={k}>
                    {shortKind(k)}
                  </option>
                ))}
              </select>
              <button
                type="button"
                class="button button-secondary button-small"
                aria-pressed={paused}
                onClick={() => (paused ? resume() : setPaused(true))}
              >
                {paused ? `Resume${held.length ? ` (${held.length} new)` : ''}` : 'Pause'}
              </button>
              <button
                type="button"
                class="button button-ghost button-small"
                onClick={() => {
                  setEvents([]);
                  setHeld([]);
                }}
              >
                Clear
              </button>
            </div>
          </div>
          <p class="muted small">
            {shown.length} event{shown.length === 1 ? '' : 's'} shown
            {kind ? ` of kind ${shortKind(kind)}` : ''}
            {paused ? ' · paused' : ''}
          </p>
          <EventList events={shown} />
        </section>
        <EventSendForm
          serverErrors={serverErrors}
          onSend={(subtype, args) => {
            setServerErrors([]);
            return socket.current?.send(customEventFrame(subtype, args)) ?? false;
          }}
        />
      </div>
    </>
  );
}
