import { WebSocket } from 'ws';
import { PipitError } from '../api/index.ts';

/** An event message's `event` object, as Home Assistant sends it. */
export interface HaEvent {
  event_type: string;
  data: Record<string, unknown>;
  origin: string;
  time_fired: string;
  context?: unknown;
}

/** Home Assistant refused the token (`auth_invalid`): retrying soon will not help. */
export class AuthRejected extends Error {}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** What {@link openSession} needs. */
export interface SessionOptions {
  wsUrl: string;
  token: string;
  timeoutMs: number;
  heartbeatMs: number;
  onEvent(subscription: number, event: HaEvent): void;
  /** Called once when the socket is gone, with why. */
  onClose(reason: string): void;
}

/**
 * One authenticated WebSocket connection to Home Assistant: ids increase per connection, each
 * `result` settles the request of its id, or the request fails with TIMEOUT; a ping every
 * `heartbeatMs` unanswered within `timeoutMs` ends the connection (a dead link).
 *
 * @example
 * const session = await openSession({ wsUrl, token, timeoutMs: 10_000, heartbeatMs: 30_000, onEvent, onClose });
 * const states = await session.request({ type: 'get_states' });
 */
export class Session {
  readonly #socket: WebSocket;
  readonly #options: SessionOptions;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(socket: WebSocket, options: SessionOptions) {
    this.#socket = socket;
    this.#options = options;
    socket.on('message', (raw) => this.#receive((raw as Buffer).toString()));
    socket.on('close', (code) => this.#end(`connection closed (code ${code})`));
    socket.on('error', (err) => this.#end(err.message));
    this.#heartbeat = setInterval(() => void this.#ping(), options.heartbeatMs);
    this.#heartbeat.unref();
  }

  /** Sends a command with the next id; resolves with its `result`, rejects with its error. */
  request(command: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    if (this.#closed)
      return Promise.reject(new PipitError('UNAVAILABLE', 'Home Assistant connection closed'));
    const id = this.#nextId++;
    const { timeoutMs } = this.#options;
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new PipitError(
            'TIMEOUT',
            `Home Assistant did not answer ${String(command.type)} within ${timeoutMs / 1000} s (homeassistant.timeout_seconds)`,
          ),
        );
      }, timeoutMs);
      const onAbort = () => {
        done();
        reject(new PipitError('ACTION_FAILED', `${String(command.type)}: the caller gave up`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
        timer,
      });
      this.#socket.send(JSON.stringify({ ...command, id }));
    });
  }

  close(): void {
    this.#socket.terminate();
    this.#end('closed by Pipit');
  }

  async #ping(): Promise<void> {
    try {
      await this.request({ type: 'ping' });
    } catch {
      if (!this.#closed) {
        this.#socket.terminate();
        this.#end(`no pong within ${this.#options.timeoutMs / 1000} s: the link is dead`);
      }
    }
  }

  #receive(raw: string): void {
    let msg: { id?: number; type?: string; success?: boolean; result?: unknown; error?: unknown };
    try {
      msg = JSON.parse(raw) as typeof msg;
    } catch {
      return;
    }
    if (msg.type === 'event' && typeof msg.id === 'number') {
      const event = (msg as { event?: HaEvent }).event;
      if (event && typeof event.event_type === 'string') this.#options.onEvent(msg.id, event);
      return;
    }
    const pending = typeof msg.id === 'number' ? this.#pending.get(msg.id) : undefined;
    if (!pending) return;
    if (msg.type === 'pong' || (msg.type === 'result' && msg.success)) pending.resolve(msg.result);
    else if (msg.type === 'result') pending.reject(haError(msg.error));
  }

  #end(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    for (const pending of this.#pending.values())
      pending.reject(new PipitError('UNAVAILABLE', `Home Assistant connection lost: ${reason}`));
    this.#pending.clear();
    this.#options.onClose(reason);
  }
}

/** Maps a `result` error (`{code, message}`) to a Pipit error. */
function haError(error: unknown): PipitError {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const text = `Home Assistant: ${message ?? 'request failed'} (${code ?? 'unknown_error'})`;
  if (code === 'not_found') return new PipitError('NOT_FOUND', text);
  if (code === 'invalid_format' || code === 'service_validation_error')
    return new PipitError('INVALID_ARGUMENTS', text);
  return new PipitError('UPSTREAM_ERROR', text);
}

/**
 * Connects and authenticates: `auth_required` → `auth` → `auth_ok`. Rejects with
 * {@link AuthRejected} on `auth_invalid`, with a plain Error when the address cannot be reached or
 * the exchange takes longer than `timeoutMs`.
 *
 * @example
 * const session = await openSession(options);
 */
export function openSession(options: SessionOptions): Promise<Session> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(options.wsUrl, { handshakeTimeout: options.timeoutMs });
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.terminate();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(new Error(`no answer to authentication within ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    );
    socket.on('error', (err) => fail(err));
    socket.on('unexpected-response', (_req, res) =>
      fail(new Error(`HTTP ${res.statusCode} at ${options.wsUrl} (is this Home Assistant?)`)),
    );
    socket.on('close', () => fail(new Error('connection closed during authentication')));
    const onMessage = (raw: unknown) => {
      let msg: { type?: string; message?: string };
      try {
        msg = JSON.parse(String(raw)) as typeof msg;
      } catch {
        return fail(new Error('not a Home Assistant WebSocket API: the server sent non-JSON'));
      }
      if (msg.type === 'auth_required') {
        socket.send(JSON.stringify({ type: 'auth', access_token: options.token }));
      } else if (msg.type === 'auth_invalid') {
        fail(new AuthRejected(msg.message ?? 'invalid access token'));
      } else if (msg.type === 'auth_ok' && !settled) {
        settled = true;
        clearTimeout(timer);
        socket.off('message', onMessage);
        socket.removeAllListeners('error');
        socket.removeAllListeners('close');
        resolve(new Session(socket, options));
      }
    };
    socket.on('message', onMessage);
  });
}
