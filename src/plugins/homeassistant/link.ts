import { PipitError } from '../api/index.ts';
import type { PluginStatus } from '../api/index.ts';
import { AuthRejected, openSession } from './session.ts';
import type { HaEvent, Session } from './session.ts';

/** An entity's state as `get_states` and `state_changed` carry it. */
export interface HaState {
  entity_id: string;
  state: string;
  attributes?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What {@link HomeAssistantLink} needs. */
export interface LinkOptions {
  wsUrl: string;
  token: string;
  /** Event types to subscribe to, one `subscribe_events` each. */
  eventTypes: readonly string[];
  timeoutMs: number;
  heartbeatMs: number;
  onEvent(event: HaEvent): void;
  setStatus(status: PluginStatus): void;
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
  signal: AbortSignal;
  /** First and longest wait between connection attempts, and the wait after a refused token. */
  backoffMs?: { min: number; max: number; authRejected: number };
}

const BACKOFF = { min: 1_000, max: 30_000, authRejected: 5 * 60_000 };

const TOKEN_FIX =
  'check homeassistant.token: create a long-lived access token in your Home Assistant profile page (Security tab, "Long-lived access tokens") and put it there';

/**
 * The plugin's link to Home Assistant: connects, authenticates, subscribes to `eventTypes` and
 * loads the states; on loss reconnects with backoff (1 s → 30 s, with jitter; 5 min after a
 * refused token) and subscribes again. Calls while it is down fail at once with UNAVAILABLE.
 *
 * @example
 * const link = new HomeAssistantLink(options);
 * await link.start();
 * await link.request({ type: 'get_states' });
 */
export class HomeAssistantLink {
  readonly #o: LinkOptions;
  readonly #backoff: NonNullable<LinkOptions['backoffMs']>;
  #session: Session | undefined;
  #attempt = 0;
  #why = 'not connected yet';
  #retryAt = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Known entities: loaded at each connection, kept current by `state_changed`. */
  readonly entities = new Map<string, HaState>();

  constructor(options: LinkOptions) {
    this.#o = options;
    this.#backoff = options.backoffMs ?? BACKOFF;
    options.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  /** Makes the first connection attempt; later ones are scheduled on their own. */
  start(): Promise<void> {
    return this.#connect();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#session?.close();
    this.#session = undefined;
  }

  get connected(): boolean {
    return this.#session !== undefined;
  }

  /** Sends a command; fails fast with UNAVAILABLE while the link is down. */
  request(command: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    if (!this.#session) {
      const seconds = Math.max(0, Math.ceil((this.#retryAt - Date.now()) / 1000));
      return Promise.reject(
        new PipitError(
          'UNAVAILABLE',
          `Home Assistant at ${this.#o.wsUrl} is not connected: ${this.#why}; retrying in ${seconds} s`,
        ),
      );
    }
    return this.#session.request(command, signal);
  }

  async #connect(): Promise<void> {
    if (this.#o.signal.aborted) return;
    let session: Session;
    try {
      session = await openSession({
        wsUrl: this.#o.wsUrl,
        token: this.#o.token,
        timeoutMs: this.#o.timeoutMs,
        heartbeatMs: this.#o.heartbeatMs,
        onEvent: (_id, event) => this.#event(event),
        onClose: (reason) => this.#lost(session, reason),
      });
    } catch (err) {
      if (err instanceof AuthRejected) {
        this.#why = `Home Assistant refused the token (${err.message}): ${TOKEN_FIX}`;
        this.#schedule(this.#backoff.authRejected, 'auth failed');
      } else {
        this.#why = `cannot connect to ${this.#o.wsUrl}: ${(err as Error).message}`;
        this.#schedule(this.#delay(), 'unreachable');
      }
      return;
    }
    if (this.#o.signal.aborted) return session.close();
    try {
      for (const type of this.#o.eventTypes)
        await session.request({ type: 'subscribe_events', event_type: type });
      const states = (await session.request({ type: 'get_states' })) as HaState[];
      this.entities.clear();
      for (const state of states) this.entities.set(state.entity_id, state);
    } catch (err) {
      session.close();
      this.#why = `setting up the connection failed: ${(err as Error).message}`;
      this.#schedule(this.#delay(), 'setup failed');
      return;
    }
    this.#session = session;
    this.#attempt = 0;
    this.#o.setStatus({ connected: true, detail: `connected to ${this.#o.wsUrl}` });
    this.#o.log.info({ url: this.#o.wsUrl }, 'connected to Home Assistant');
  }

  #lost(session: Session, reason: string): void {
    if (this.#session !== session) return;
    this.#session = undefined;
    if (this.#o.signal.aborted) return;
    this.#why = `connection lost (${reason})`;
    this.#schedule(this.#delay(), 'lost');
  }

  #schedule(ms: number, what: string): void {
    if (this.#o.signal.aborted) return;
    this.#retryAt = Date.now() + ms;
    const detail = `${this.#why}; retrying in ${Math.ceil(ms / 1000)} s`;
    this.#o.setStatus({ connected: false, detail });
    this.#o.log.warn({ url: this.#o.wsUrl, what }, detail);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#connect(), ms);
    this.#timer.unref();
  }

  #delay(): number {
    const base = Math.min(this.#backoff.max, this.#backoff.min * 2 ** this.#attempt++);
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  #event(event: HaEvent): void {
    if (event.event_type === 'state_changed') {
      const { entity_id, new_state } = event.data as { entity_id?: string; new_state?: HaState };
      if (typeof entity_id === 'string') {
        if (new_state) this.entities.set(entity_id, new_state);
        else this.entities.delete(entity_id);
      }
    }
    this.#o.onEvent(event);
  }
}
