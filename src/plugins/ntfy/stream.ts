import type { StreamMessage } from './events.ts';
import { networkCause } from '../api/index.ts';
import { origin, statusError } from './http.ts';

/** What a {@link TopicStream} needs. */
export interface StreamOptions {
  serverUrl: string;
  topic: string;
  authorization?: string | undefined;
  /** The config keys to fix when the server refuses the credentials. */
  credentials: string;
  /** How long the server has to open the stream (headers and its `open` event). */
  timeoutMs: number;
  /** How long an open stream may stay silent (ntfy sends a keepalive every 45 s by default). */
  keepaliveTimeoutMs: number;
  backoffMs: { min: number; max: number };
  onMessage(message: StreamMessage): void;
  /** Called when `connected` or `why` changed. */
  onChange(): void;
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
  signal: AbortSignal;
}

/** How many message IDs a stream remembers, so that a replay after a reconnect repeats none. */
const REMEMBERED = 500;
/** A line longer than this is not ntfy's: the stream is dropped rather than buffered forever. */
const MAX_LINE = 1 << 20;

/**
 * One topic's JSON stream (`GET /<topic>/json`, docs.ntfy.sh/subscribe/api/). When it is lost it
 * is reopened with backoff (1 s → 30 s, jitter) and `since=<the last message ID>` (or the time
 * of its `open` event, before any message), so a message published meanwhile is delivered once:
 * the server sends what it cached since then, and IDs already seen are skipped.
 *
 * @example
 * const stream = new TopicStream({ serverUrl, topic: 'alerts', onMessage: (m) => fire(m), ... });
 * await stream.start();
 */
export class TopicStream {
  readonly topic: string;
  connected = false;
  why = 'not connected yet';
  retryAt = 0;
  readonly #o: StreamOptions;
  #cursor: string | undefined;
  readonly #seen: string[] = [];
  #attempt = 0;
  #timer: NodeJS.Timeout | undefined;
  #conn: AbortController | undefined;
  #settle: (() => void) | undefined;

  constructor(options: StreamOptions) {
    this.#o = options;
    this.topic = options.topic;
    options.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  /** Opens the stream; resolves once it is open or its first attempt failed (bounded). */
  start(): Promise<void> {
    const first = new Promise<void>((resolve) => (this.#settle = resolve));
    void this.#connect();
    return first;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#conn?.abort(new Error('stopped'));
    this.#settle?.();
  }

  /** The `since=` a reconnection sends: the last message ID, or when the stream first opened. */
  get cursor(): string | undefined {
    return this.#cursor;
  }

  async #connect(): Promise<void> {
    if (this.#o.signal.aborted) return;
    const conn = new AbortController();
    this.#conn = conn;
    let idle: NodeJS.Timeout | undefined;
    const arm = (ms: number, what: string) => {
      clearTimeout(idle);
      idle = setTimeout(() => conn.abort(new Error(what)), ms);
    };
    const opening = `no answer within ${this.#o.timeoutMs / 1000} s (ntfy.timeout_seconds)`;
    arm(this.#o.timeoutMs, opening);
    const base = this.#o.serverUrl.replace(/\/+$/, '');
    const since = this.#cursor ? `?since=${encodeURIComponent(this.#cursor)}` : '';
    const url = `${base}/${this.topic}/json${since}`;
    let failure: string;
    let authRefused = false;
    try {
      const res = await fetch(url, {
        headers: this.#o.authorization ? { authorization: this.#o.authorization } : {},
        signal: conn.signal,
        redirect: 'error',
      });
      if (res.status !== 200) {
        const text = await res.text();
        authRefused = res.status === 401 || res.status === 403;
        throw new Refused(
          statusError(res.status, text, {
            url,
            method: 'GET',
            headers: {},
            timeoutMs: this.#o.timeoutMs,
            what: `subscribing to ${this.topic}`,
            credentials: this.#o.credentials,
          }).message,
        );
      }
      await this.#read(res, (line) => {
        if (line.event === 'open') {
          this.#cursor ??= String(line.time);
          arm(this.#o.keepaliveTimeoutMs, this.#silent());
          this.#up();
        } else if (this.connected) {
          arm(this.#o.keepaliveTimeoutMs, this.#silent());
        }
        if (line.event === 'message') this.#message(line);
      });
      failure = 'the server closed the stream';
    } catch (err) {
      if (err instanceof Refused) failure = err.message;
      else if (conn.signal.aborted) failure = String((conn.signal.reason as Error).message);
      else failure = networkCause(err);
    } finally {
      clearTimeout(idle);
    }
    if (this.#o.signal.aborted || this.#conn !== conn) return;
    this.#down(failure, authRefused);
  }

  #silent(): string {
    return `no keepalive for ${this.#o.keepaliveTimeoutMs / 1000} s (ntfy.keepalive_timeout_seconds)`;
  }

  async #read(res: Response, onLine: (m: StreamMessage) => void): Promise<void> {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (line) onLine(parseLine(line));
      }
      if (buffered.length > MAX_LINE) throw new Error('a line of the stream is over 1 MiB');
    }
  }

  #message(m: StreamMessage): void {
    if (this.#seen.includes(m.id)) return;
    this.#seen.push(m.id);
    if (this.#seen.length > REMEMBERED) this.#seen.shift();
    this.#cursor = m.id;
    this.#o.onMessage(m);
  }

  #up(): void {
    if (this.connected) return;
    this.connected = true;
    this.#attempt = 0;
    this.why = `subscribed on ${origin(this.#o.serverUrl)}`;
    this.#o.log.info({ topic: this.topic, server: origin(this.#o.serverUrl) }, 'ntfy stream open');
    this.#o.onChange();
    this.#settle?.();
  }

  #down(reason: string, authRefused: boolean): void {
    this.connected = false;
    // Refused credentials stay refused until someone fixes them: no hammering.
    const ms = authRefused ? this.#o.backoffMs.max : this.#delay();
    this.retryAt = Date.now() + ms;
    this.why = reason;
    this.#o.log.warn(
      { topic: this.topic, server: origin(this.#o.serverUrl) },
      `ntfy stream of ${this.topic} lost: ${reason}; retrying in ${Math.ceil(ms / 1000)} s`,
    );
    this.#o.onChange();
    this.#settle?.();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#connect(), ms);
    this.#timer.unref();
  }

  #delay(): number {
    const { min, max } = this.#o.backoffMs;
    const base = Math.min(max, min * 2 ** this.#attempt++);
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }
}

/** The server answered the subscription with an error status (its text in the message). */
class Refused extends Error {}

function parseLine(line: string): StreamMessage {
  const parsed = JSON.parse(line) as StreamMessage;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.event !== 'string')
    throw new Error(`not an ntfy message: ${line.slice(0, 80)}`);
  return parsed;
}
