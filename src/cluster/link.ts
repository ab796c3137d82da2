import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { Logger } from '../core/logger.ts';

/**
 * The URL as it may be logged and shown: the password (if any) replaced by `***`.
 *
 * @example
 * redactUrl('redis://:hunter2@db:6379/0'); // 'redis://:***@db:6379/0'
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** Reconnection delay after the `attempt`-th failure: 100 ms doubling to 3 s, with jitter. */
export function backoffMs(attempt: number): number {
  return Math.min(100 * 2 ** Math.max(0, attempt - 1), 3_000) + Math.floor(Math.random() * 100);
}

/** The connection's state as reported to `/readyz` and `inspect.instances`. */
export interface LinkState {
  connected: boolean;
  /** Connected, but something makes the cluster unusable (see {@link RedisLink.fault}). */
  faults: string[];
  /** Epoch ms of the last change (or of the start). */
  since: number;
  /** Why it is down, when it is. */
  error: string | null;
}

/** What a {@link RedisLink} is made from. */
export interface RedisLinkOptions {
  url: string;
  name: string;
  log: Logger;
  /** A command not answered within this fails (and a heartbeat PING that does marks the link down). */
  commandTimeoutMs: number;
}

/**
 * The connections to Redis: `command` for ordinary commands, one for the event stream's reads
 * and one for this instance's channels (subscriber mode). Commands never queue while Redis is
 * unreachable: they fail at once, so a remote request fails fast instead of hanging; every command
 * has a timeout, so a Redis that hangs or a link that dropped without closing cannot hold a caller;
 * every connection reconnects by itself with backoff. {@link RedisLink.hung} (an unanswered
 * heartbeat PING) marks the link down and opens new connections. Besides being connected, the link
 * can be faulty (Redis Cluster, a missing ACL permission, a key of the wrong type...): each fault is
 * logged once, with its cause, and the link is not {@link RedisLink.usable} until it clears. The
 * state is logged once per change, not once per attempt.
 *
 * @example
 * const link = new RedisLink({ url, name: 'kitchen', log, commandTimeoutMs: 3000 });
 * link.onChange((up) => console.log(up ? 'connected' : 'lost'));
 * link.start();
 */
export class RedisLink {
  readonly url: string;
  readonly #rawUrl: string;
  readonly #name: string;
  readonly #log: Logger;
  readonly #listeners = new Set<(up: boolean) => void>();
  readonly #commandTimeoutMs: number;
  readonly #faults = new Map<string, string>();
  #state: { connected: boolean; since: number; error: string | null } = {
    connected: false,
    since: Date.now(),
    error: null,
  };
  #everConnected = false;
  #reportedUnreachable = false;
  #command: Redis | undefined;
  #events: Redis | undefined;
  #inbox: Redis | undefined;
  #closed = false;

  constructor(opts: RedisLinkOptions) {
    this.#rawUrl = opts.url;
    this.url = redactUrl(opts.url);
    this.#name = opts.name;
    this.#log = opts.log;
    this.#commandTimeoutMs = opts.commandTimeoutMs;
  }

  get state(): LinkState {
    const { connected, since, error } = this.#state;
    const faults = [...this.#faults.values()];
    return { connected, since, faults, error: connected ? (faults[0] ?? null) : error };
  }

  get connected(): boolean {
    return this.#state.connected;
  }

  /** Connected and without a fault: what `/readyz` reports. */
  get usable(): boolean {
    return this.#state.connected && this.#faults.size === 0;
  }

  get commandTimeoutMs(): number {
    return this.#commandTimeoutMs;
  }

  /**
   * Sets (a message) or clears (null) the fault named `name`. A new fault is logged once as an
   * error with its message; its end is logged too.
   *
   * @example
   * link.fault('wrongtype', 'pipit:events is a string, not a stream: ...');
   */
  fault(name: string, message: string | null): void {
    const had = this.#faults.get(name);
    if (message === null) {
      if (had === undefined) return;
      this.#faults.delete(name);
      this.#log.info({ fault: name }, `resolved: ${had}`);
      return;
    }
    if (had === message) return;
    this.#faults.set(name, message);
    this.#log.error({ fault: name, redis: this.url }, message);
  }

  /** The message of the fault `name`, if set. */
  faultOf(name: string): string | undefined {
    return this.#faults.get(name);
  }

  /**
   * The connection answers nothing (Redis hangs, or the network dropped without closing it): the
   * link is down at once (calls waiting fail, `/readyz` 503), and every connection is replaced.
   */
  hung(why: string): void {
    if (this.#closed) return;
    this.#state.error = why;
    this.#change(false);
    for (const client of [this.#command, this.#events, this.#inbox]) client?.disconnect(true);
  }

  /** Replaces one connection that stopped answering (a read that timed out). */
  reset(client: Redis): void {
    if (!this.#closed) client.disconnect(true);
  }

  get command(): Redis {
    return (this.#command ??= this.#client('command'));
  }

  get events(): Redis {
    return (this.#events ??= this.#client('events'));
  }

  get inbox(): Redis {
    return (this.#inbox ??= this.#client('inbox'));
  }

  /** Opens the command connection (the readers open theirs when first used). */
  start(): void {
    void this.command;
  }

  /** Calls `listener(true)` when the command connection becomes ready, `false` when it is lost. */
  onChange(listener: (up: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once `client` is ready (at once if it is), or when the link closes. */
  async ready(client: Redis): Promise<void> {
    if (client.status === 'ready' || this.#closed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        client.off('ready', done);
        client.off('end', done);
        resolve();
      };
      client.on('ready', done);
      client.on('end', done);
    });
  }

  /**
   * Resolves true once connected (at once if it is), false after `timeoutMs` or on close: for work
   * that can wait a moment for a reconnection rather than fail (the `once` locks).
   */
  async whenConnected(timeoutMs: number): Promise<boolean> {
    if (this.#state.connected) return true;
    if (this.#closed) return false;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        stop();
        resolve(false);
      }, timeoutMs);
      const stop = this.onChange((up) => {
        if (!up) return;
        clearTimeout(timer);
        stop();
        resolve(true);
      });
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const client of [this.#command, this.#events, this.#inbox]) client?.disconnect();
  }

  #client(role: 'command' | 'events' | 'inbox'): Redis {
    const options: RedisOptions = {
      // No command blocks (the stream is polled): none may wait longer than this.
      commandTimeout: this.#commandTimeoutMs,
      connectionName: `pipit:${this.#name}:${role}`,
      // RESP2: the replies' shapes do not depend on the server's version.
      protocol: 2,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 3_000,
      retryStrategy: (attempt) => (this.#closed ? null : backoffMs(attempt)),
    };
    const client = new Redis(this.#rawUrl, options);
    // ioredis reports every failed attempt; the state change is what gets logged.
    client.on('error', (err: Error) => {
      if (role === 'command') this.#state.error = err.message || String(err);
    });
    if (role === 'command') {
      client.on('ready', () => this.#change(this.#inboxUsable()));
      client.on('close', () => this.#change(false));
    } else if (role === 'inbox') {
      // Routed calls get their answers on this connection: after an outage the link is up only
      // once it is back too (each connection retries on its own backoff, up to 3 s apart), else
      // the first calls after /readyz said 200 lost their replies and timed out.
      client.on('ready', () => this.#change(this.#command?.status === 'ready'));
      client.on('close', () => this.#change(false));
    }
    return client;
  }

  // The inbox connection is opened by the cluster's inbox once it starts; before that only the
  // command connection decides.
  #inboxUsable(): boolean {
    return this.#inbox === undefined || this.#inbox.status === 'ready';
  }

  #change(up: boolean): void {
    if (this.#closed || up === this.#state.connected) {
      if (!up && !this.#everConnected && !this.#state.connected) this.#reportUnreachable();
      return;
    }
    const downFor = Date.now() - this.#state.since;
    const error = up ? null : (this.#state.error ?? 'the connection was closed');
    this.#state = { connected: up, since: Date.now(), error };
    if (up) {
      this.#log.info(
        { redis: this.url },
        this.#everConnected
          ? `reconnected to Redis after ${(downFor / 1000).toFixed(1)} s: requests to other instances work again`
          : `connected to Redis at ${this.url}: this instance is part of the cluster`,
      );
      this.#everConnected = true;
    } else {
      this.#log.warn(
        { redis: this.url, err: this.#state.error },
        `lost the connection to Redis at ${this.url}${this.#state.error ? ` (${this.#state.error})` : ''}: local work goes on, requests to other instances fail until it is back; reconnecting with backoff`,
      );
    }
    for (const listener of this.#listeners) listener(up);
  }

  // Down from the start: said once, not at every attempt.
  #reportUnreachable(): void {
    if (this.#reportedUnreachable) return;
    this.#reportedUnreachable = true;
    this.#log.warn(
      { redis: this.url, err: this.#state.error },
      `cannot reach Redis at ${this.url}${this.#state.error ? ` (${this.#state.error})` : ''}: this instance serves local work and keeps retrying with backoff`,
    );
  }
}
