import type { PluginContext } from '../api/index.ts';
import { changesBetween } from './changes.ts';
import type { Snapshot } from './changes.ts';
import type { MpdConfig } from './config.ts';
import type { MpdConnection } from './connection.ts';
import { MpdLink } from './link.ts';
import { toObject } from './shapes.ts';
import { splitStreamTitle } from './track.ts';

type Ctx = PluginContext<unknown>;

/** The subsystems whose changes Platypush's events describe. */
const SUBSYSTEMS = ['player', 'mixer', 'playlist', 'options'] as const;

/**
 * Hears MPD's changes on a connection of its own, parked in `idle` (MPD answers as soon as the
 * player, mixer, queue or options change), and raises Platypush's music events from the
 * difference between the status before and after. The first status is the baseline and raises
 * nothing; after a reconnection, what changed while the link was down is raised then.
 *
 * @example
 * new MpdWatcher(config, log, signal, report, fire).start();
 */
export class MpdWatcher {
  readonly link: MpdLink;
  private last: Snapshot | undefined;
  private readonly log: Ctx['log'];
  private readonly fire: Ctx['fire'];

  constructor(
    config: MpdConfig,
    log: Ctx['log'],
    signal: AbortSignal,
    onChange: () => void,
    fire: Ctx['fire'],
  ) {
    this.log = log;
    this.fire = fire;
    this.link = new MpdLink('events', config, log, signal, (conn) => this.listen(conn), onChange);
  }

  start(): void {
    this.link.start();
  }

  private async listen(conn: MpdConnection): Promise<void> {
    await this.advance(await snapshot(conn));
    for (;;) {
      await conn.request([['idle', ...SUBSYSTEMS]], { timeoutMs: null });
      await this.advance(await snapshot(conn));
    }
  }

  private async advance(next: Snapshot): Promise<void> {
    const prev = this.last;
    this.last = next;
    if (!prev) return;
    for (const change of changesBetween(prev, next)) {
      try {
        await this.fire(change.kind, change.fields);
      } catch (err) {
        this.log.error({ err, kind: change.kind }, 'music.mpd: could not raise an event');
      }
    }
  }
}

async function snapshot(conn: MpdConnection): Promise<Snapshot> {
  const [status, song] = await conn.request([['status'], ['currentsong']]);
  return { status: toObject(status!), track: splitStreamTitle(toObject(song!)) };
}
