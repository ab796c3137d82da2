import { backoffDelay, isEventMessage } from './events.ts';
import type { EventMessage } from './events.ts';

/** The state of the live connection, as the Events view shows it. */
export type SocketState = 'connecting' | 'open' | 'closed';

export interface EventsSocketHandlers {
  onEvent(event: EventMessage): void;
  onState(state: SocketState, detail?: string): void;
  /** Server-side errors about a frame we sent (`{"type":"error","errors":[...]}`). */
  onError(errors: string[]): void;
  /** Close code 1008: the session is not (or no longer) valid. */
  onAuthFailure(): void;
}

const POLICY_VIOLATION = 1008;
/** How many earlier events the server replays on connect (its most). */
const HISTORY = 50;

/**
 * A `/ws/events` connection that reconnects with backoff until closed. The browser sends the
 * session cookie with the upgrade request, which is what authenticates it.
 *
 * @example
 * const socket = new EventsSocket(handlers); socket.start(); … socket.stop();
 */
export class EventsSocket {
  private ws: WebSocket | undefined;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly handlers: EventsSocketHandlers;

  constructor(handlers: EventsSocketHandlers) {
    this.handlers = handlers;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
    this.ws = undefined;
  }

  /** Sends a frame; false when the socket is not open. */
  send(frame: string): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(frame);
    return true;
  }

  private connect(): void {
    const url = new URL('/ws/events', location.href);
    // The newest events from before this connection first (on a reconnect too: they fill the
    // gap, and the page drops the ones it has by their id).
    url.searchParams.set('history', String(HISTORY));
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    this.handlers.onState('connecting');
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.handlers.onState('open');
    };
    ws.onmessage = (msg: MessageEvent) => {
      let data: unknown;
      try {
        data = JSON.parse(String(msg.data));
      } catch {
        return;
      }
      if (isEventMessage(data)) this.handlers.onEvent(data);
      else if ((data as { type?: unknown } | null)?.type === 'error') {
        const errors = (data as { errors?: unknown }).errors;
        this.handlers.onError(Array.isArray(errors) ? errors.map(String) : ['unknown error']);
      }
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws || this.stopped) return;
      if (ev.code === POLICY_VIOLATION) {
        this.handlers.onState('closed', 'not authenticated');
        this.handlers.onAuthFailure();
        return;
      }
      const delay = backoffDelay(this.attempt++);
      this.handlers.onState('closed', `reconnecting in ${Math.ceil(delay / 1000)} s`);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }
}
