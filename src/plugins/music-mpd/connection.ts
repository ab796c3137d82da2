import { createConnection } from 'node:net';
import type { Socket } from 'node:net';
import { PipitError } from '../api/index.ts';
import { isSocketPath, serverName } from './config.ts';
import type { MpdConfig } from './config.ts';
import { ackError, commandLine, isAuthAck, parseAck } from './protocol.ts';
import type { MpdAck, MpdCommand } from './protocol.ts';

interface Pending {
  text: string;
  what: string;
  timeoutMs: number | null;
  /** Sent as a command list: each answer ends with `list_OK`, the whole with `OK`. */
  isList: boolean;
  segments: string[][];
  lines: string[];
  resolve(segments: string[][]): void;
  reject(err: Error): void;
  timer?: NodeJS.Timeout;
  dropAbort?: () => void;
}

/** How long a command may take; `null` for `idle`, which waits for as long as nothing changes. */
export interface RequestOptions {
  timeoutMs?: number | null;
  signal?: AbortSignal;
}

/**
 * One connection to MPD: the greeting, the password, then commands one at a time (the protocol
 * answers in order, so a queue keeps one in flight). A command that does not answer in time is a
 * TIMEOUT and closes the connection, whose later answer could no longer be told apart.
 *
 * @example
 * const conn = await MpdConnection.open(config);
 * const [status] = await conn.request([['status']]);
 */
export class MpdConnection {
  /** The protocol version of the greeting (`OK MPD 0.23.5`). */
  version = '';
  /** Settles when the socket closes, with why. */
  readonly closed: Promise<Error>;
  /** When the last command was answered (for the keep-alive ping). */
  lastUsed = Date.now();
  private readonly socket: Socket;
  private readonly where: string;
  private readonly timeoutMs: number;
  private buffer = '';
  private greeting?: { resolve(v: string): void; reject(e: Error): void };
  private current: Pending | undefined;
  private readonly queue: Pending[] = [];
  private closeReason: Error | undefined;

  private constructor(config: MpdConfig) {
    this.where = serverName(config);
    this.timeoutMs = config.timeout * 1000;
    this.socket = isSocketPath(config.host)
      ? createConnection({ path: config.host })
      : createConnection({ host: config.host, port: config.port });
    this.socket.setEncoding('utf8');
    this.socket.setNoDelay(true);
    // The `idle` connection waits without a timeout: TCP keep-alive finds a peer that vanished.
    this.socket.setKeepAlive(true, 15_000);
    this.closed = new Promise((resolve) => {
      this.socket.on('error', (err) => {
        this.closeReason ??= new PipitError(
          'UNAVAILABLE',
          `music.mpd: the connection to MPD at ${this.where} failed: ${err.message}`,
          { cause: err },
        );
      });
      this.socket.on('close', () => {
        const reason =
          this.closeReason ??
          new PipitError('UNAVAILABLE', `music.mpd: MPD at ${this.where} closed the connection`);
        this.closeReason = reason;
        this.failAll(reason);
        resolve(reason);
      });
    });
    this.socket.on('data', (chunk: string) => this.onData(chunk));
  }

  /**
   * Connects, reads MPD's greeting, sends the password if there is one and checks with `status`
   * that this client may read; every step within the configured timeout.
   */
  static async open(config: MpdConfig, signal?: AbortSignal): Promise<MpdConnection> {
    const conn = new MpdConnection(config);
    const timeoutMs = config.timeout * 1000;
    const stop = () => conn.destroy(new PipitError('UNAVAILABLE', 'music.mpd: stopping'));
    signal?.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(
      () =>
        conn.destroy(
          new PipitError(
            'TIMEOUT',
            `music.mpd: MPD at ${conn.where} did not greet within ${config.timeout} s: is it an MPD server?`,
          ),
        ),
      timeoutMs,
    );
    try {
      conn.version = await new Promise<string>((resolve, reject) => {
        conn.greeting = { resolve, reject };
        void conn.closed.then(reject);
      });
      clearTimeout(timer);
      if (config.password !== undefined)
        await conn.request([['password', config.password]]).catch((err: unknown) => {
          throw authError(err, conn.where, 'refused the password: check music.mpd.password');
        });
      await conn.request([['status']]).catch((err: unknown) => {
        throw authError(err, conn.where, 'wants a password: set music.mpd.password');
      });
      return conn;
    } catch (err) {
      conn.destroy(err as Error);
      throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    }
  }

  /**
   * Sends commands and resolves with each one's answer lines: one command alone, several as one
   * command list (`command_list_ok_begin`), which MPD runs without interleaving another client's.
   * An `ACK` answer rejects with the error of {@link ackError}.
   */
  request(commands: readonly MpdCommand[], opts: RequestOptions = {}): Promise<string[][]> {
    if (this.closeReason) return Promise.reject(this.closeReason);
    const lines = commands.map(commandLine);
    const text =
      lines.length === 1
        ? `${lines[0]}\n`
        : `command_list_ok_begin\n${lines.join('\n')}\ncommand_list_end\n`;
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        text,
        what: commands.map((c) => c[0]).join(', '),
        timeoutMs: opts.timeoutMs === undefined ? this.timeoutMs : opts.timeoutMs,
        isList: lines.length > 1,
        segments: [],
        lines: [],
        resolve,
        reject,
      };
      const signal = opts.signal;
      if (signal) {
        // A command still queued is dropped; one already sent runs to its end (MPD cannot cancel).
        const onAbort = () => {
          const at = this.queue.indexOf(pending);
          if (at < 0) return;
          this.queue.splice(at, 1);
          reject(
            new PipitError('UNAVAILABLE', `music.mpd: ${pending.what} cancelled by the caller`),
          );
        };
        signal.addEventListener('abort', onAbort, { once: true });
        pending.dropAbort = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(pending);
      this.next();
    });
  }

  /** Closes the connection; what is queued or in flight fails with `reason`. */
  destroy(reason?: Error): void {
    this.closeReason ??=
      reason ?? new PipitError('UNAVAILABLE', `music.mpd: the connection to MPD was closed`);
    this.socket.destroy();
  }

  private next(): void {
    if (this.current || this.closeReason) return;
    const pending = this.queue.shift();
    if (!pending) return;
    this.current = pending;
    if (pending.timeoutMs !== null) {
      const seconds = pending.timeoutMs / 1000;
      pending.timer = setTimeout(() => {
        const err = new PipitError(
          'TIMEOUT',
          `music.mpd: MPD at ${this.where} did not answer "${pending.what}" within ${seconds} s (music.mpd.timeout); reconnecting`,
        );
        pending.reject(err);
        this.current = undefined;
        this.destroy(err);
      }, pending.timeoutMs);
    }
    this.socket.write(pending.text);
  }

  private onData(chunk: string): void {
    const lines = (this.buffer + chunk).split('\n');
    this.buffer = lines.pop()!;
    for (const line of lines) {
      if (this.closeReason) return;
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    if (this.greeting) {
      const m = /^OK MPD (\S+)/.exec(line);
      const greeting = this.greeting;
      this.greeting = undefined;
      if (m) greeting.resolve(m[1]!);
      else {
        const err = new PipitError(
          'UPSTREAM_ERROR',
          `music.mpd: ${this.where} is not an MPD server (it said ${JSON.stringify(line.slice(0, 80))})`,
        );
        greeting.reject(err);
        this.destroy(err);
      }
      return;
    }
    const pending = this.current;
    if (!pending) {
      this.destroy(
        new PipitError('UPSTREAM_ERROR', `music.mpd: MPD sent a line nobody asked for: ${line}`),
      );
      return;
    }
    if (line === 'OK' || line.startsWith('ACK ')) {
      clearTimeout(pending.timer);
      pending.dropAbort?.();
      this.current = undefined;
      this.lastUsed = Date.now();
      const ack = line === 'OK' ? undefined : parseAck(line);
      if (line === 'OK') pending.resolve(pending.isList ? pending.segments : [pending.lines]);
      else if (ack) pending.reject(ackError(ack));
      else pending.reject(new PipitError('UPSTREAM_ERROR', `music.mpd: MPD answered ${line}`));
      this.next();
    } else if (line === 'list_OK') {
      pending.segments.push(pending.lines);
      pending.lines = [];
    } else pending.lines.push(line);
  }

  private failAll(reason: Error): void {
    this.greeting?.reject(reason);
    this.greeting = undefined;
    for (const pending of [...(this.current ? [this.current] : []), ...this.queue.splice(0)]) {
      clearTimeout(pending.timer);
      pending.dropAbort?.();
      pending.reject(reason);
    }
    this.current = undefined;
  }
}

/**
 * A refused password (ACK 3) or a missing one (ACK 4, no permission to read) as the link's
 * error, naming the config key to fix; any other error as it is.
 */
function authError(err: unknown, where: string, fix: string): unknown {
  const ack = err instanceof PipitError ? (err.details.ack as MpdAck | undefined) : undefined;
  if (!ack || !isAuthAck(ack)) return err;
  return new PipitError(
    'UNAVAILABLE',
    `music.mpd: MPD at ${where} ${fix} (it said "${ack.message}", ACK ${ack.code})`,
    { cause: err },
  );
}
