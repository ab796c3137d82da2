import { setTimeout as delay } from 'node:timers/promises';
import type { PluginContext } from '../api/index.ts';
import type { MpdConfig } from './config.ts';
import { MpdConnection } from './connection.ts';

type Log = PluginContext<unknown>['log'];

/** What a link does with each connection it opens; it returns (or throws) when that one ends. */
export type Session = (conn: MpdConnection) => Promise<unknown>;

/**
 * Keeps one connection to MPD open for one use (commands, or `idle`): it connects, runs its
 * session, and when the connection ends waits and connects again, with exponential backoff
 * (`reconnect_min_seconds` doubling up to `reconnect_max_seconds`, ±20 % jitter). It stops on
 * `signal`.
 *
 * @example
 * const link = new MpdLink('commands', config, log, signal, (conn) => conn.closed, report);
 * link.start();
 */
export class MpdLink {
  /** The open connection, while there is one. */
  conn: MpdConnection | undefined;
  /** Why the last attempt or connection ended. */
  lastError: string | undefined;
  /** When the next attempt is due (ms since the epoch), while waiting for it. */
  retryAt: number | undefined;
  readonly role: string;
  private failures = 0;
  private readonly config: MpdConfig;
  private readonly log: Log;
  private readonly signal: AbortSignal;
  private readonly session: Session;
  private readonly onChange: () => void;

  constructor(
    role: string,
    config: MpdConfig,
    log: Log,
    signal: AbortSignal,
    session: Session,
    onChange: () => void,
  ) {
    this.role = role;
    this.config = config;
    this.log = log;
    this.signal = signal;
    this.session = session;
    this.onChange = onChange;
  }

  /** Starts connecting in the background; failures are retried, never thrown. */
  start(): void {
    void this.loop();
  }

  /** Seconds until the next attempt (0 while one is under way). */
  retryIn(): number {
    return this.retryAt ? Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000)) : 0;
  }

  private async loop(): Promise<void> {
    while (!this.signal.aborted) {
      let conn: MpdConnection | undefined;
      try {
        conn = await MpdConnection.open(this.config, this.signal);
        if (this.signal.aborted) break;
        this.conn = conn;
        this.failures = 0;
        this.retryAt = undefined;
        this.lastError = undefined;
        this.log.info({ role: this.role, version: conn.version }, 'music.mpd: connected');
        this.onChange();
        const stop = () => conn?.destroy();
        this.signal.addEventListener('abort', stop, { once: true });
        try {
          // Whichever ends first: the session, or the connection under it.
          const ended = conn.closed.then((err) => Promise.reject(err));
          const running = this.session(conn);
          ended.catch(() => undefined);
          running.catch(() => undefined);
          await Promise.race([running, ended]);
        } finally {
          this.signal.removeEventListener('abort', stop);
        }
      } catch (err) {
        this.lastError = (err as Error).message.replace(/^music\.mpd: /, '');
      } finally {
        const was = this.conn;
        this.conn = undefined;
        conn?.destroy();
        if (was && !this.signal.aborted)
          this.log.warn({ role: this.role, reason: this.lastError }, 'music.mpd: connection lost');
      }
      if (this.signal.aborted) break;
      const base = Math.min(
        this.config.reconnect_max_seconds * 1000,
        this.config.reconnect_min_seconds * 1000 * 2 ** this.failures,
      );
      this.failures++;
      const wait = base * (0.8 + Math.random() * 0.4);
      this.retryAt = Date.now() + wait;
      this.onChange();
      try {
        await delay(wait, undefined, { signal: this.signal });
      } catch {
        break;
      }
      this.retryAt = undefined;
    }
    this.conn = undefined;
  }
}
