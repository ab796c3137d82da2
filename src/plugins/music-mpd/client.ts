import type { PluginContext } from '../api/index.ts';
import { PipitError } from '../api/index.ts';
import { serverName } from './config.ts';
import type { MpdConfig } from './config.ts';
import type { MpdConnection } from './connection.ts';
import { MpdLink } from './link.ts';
import type { MpdCommand } from './protocol.ts';
import { toObject } from './shapes.ts';
import type { MpdObject } from './shapes.ts';
import { splitStreamTitle } from './track.ts';

type Log = PluginContext<unknown>['log'];

/** MPD closes a connection silent for `connection_timeout` (60 s by default): ping before. */
const KEEPALIVE_MS = 20_000;

/**
 * The actions' side of the plugin: one connection for commands, kept open by an {@link MpdLink},
 * with commands sent one at a time. A call while it is down fails at once with UNAVAILABLE.
 *
 * @example
 * const mpd = new MpdClient(config, log, signal, report);
 * mpd.start();
 * await mpd.thenStatus([['play']]);
 */
export class MpdClient {
  readonly link: MpdLink;
  readonly where: string;

  constructor(config: MpdConfig, log: Log, signal: AbortSignal, onChange: () => void) {
    this.where = serverName(config);
    this.link = new MpdLink('commands', config, log, signal, keepAlive, onChange);
  }

  start(): void {
    this.link.start();
  }

  /** The protocol version MPD greeted with, while connected. */
  get version(): string | undefined {
    return this.link.conn?.version;
  }

  /** Runs one command; its answer's lines. */
  async run(command: MpdCommand, signal?: AbortSignal): Promise<string[]> {
    return (await this.connection().request([command], { signal }))[0]!;
  }

  /** Runs commands as one command list; each one's answer. */
  async list(commands: readonly MpdCommand[], signal?: AbortSignal): Promise<string[][]> {
    if (commands.length === 0) return [];
    if (commands.length === 1) return [await this.run(commands[0]!, signal)];
    return this.connection().request(commands, { signal });
  }

  /** MPD's `status`. */
  async status(signal?: AbortSignal): Promise<MpdObject> {
    return toObject(await this.run(['status'], signal));
  }

  /** Runs commands then `status` in one command list, and answers the status after them. */
  async thenStatus(commands: readonly MpdCommand[], signal?: AbortSignal): Promise<MpdObject> {
    const answers = await this.list([...commands, ['status']], signal);
    return toObject(answers.at(-1)!);
  }

  /** The current track (`currentsong`), as Platypush's `current_track` answers it. */
  async currentTrack(signal?: AbortSignal): Promise<MpdObject> {
    return splitStreamTitle(toObject(await this.run(['currentsong'], signal)));
  }

  private connection(): MpdConnection {
    const conn = this.link.conn;
    if (conn) return conn;
    throw new PipitError(
      'UNAVAILABLE',
      `music.mpd: MPD at ${this.where} is not connected: ${this.link.lastError ?? 'connecting'}; retrying in ${this.link.retryIn()} s`,
    );
  }
}

/** The command connection's session: a `ping` when it has been quiet, until it closes. */
function keepAlive(conn: MpdConnection): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (Date.now() - conn.lastUsed > KEEPALIVE_MS)
        conn.request([['ping']]).catch(() => undefined);
    }, KEEPALIVE_MS / 4);
    timer.unref();
    void conn.closed.then(() => {
      clearInterval(timer);
      resolve();
    });
  });
}
