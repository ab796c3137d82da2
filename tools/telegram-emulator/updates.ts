import type { TgUpdate } from './state.ts';

/** How a held getUpdates ended. */
export type HoldEnd = 'ready' | 'timeout' | 'conflict' | 'closed';

// Update types left out unless allowed_updates names them (getUpdates, "allowed_updates").
const OPT_IN = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

/**
 * The bot's incoming updates, as the Bot API's getUpdates serves them: kept until confirmed (a
 * getUpdates with an offset above their update_id), filtered by the last allowed_updates, and one
 * long poll at a time (a second one ends the first with 409 Conflict).
 *
 * @example
 * queue.push({ message: { message_id: 1, date: 0, chat } });
 * queue.confirm(offset); queue.ready(100);
 */
export class UpdateQueue {
  /** The update_id the next update gets (the webhooks guide's examples use 10000). */
  nextUpdateId = 10000;
  /** The last allowed_updates a getUpdates sent; undefined: all but the opt-in types. */
  allowed: string[] | undefined;
  private pending: TgUpdate[] = [];
  private held: ((end: HoldEnd) => void) | undefined;

  /** Adds an update (its update_id given, or the next one); undefined if allowed_updates drops it. */
  push(update: Record<string, unknown>): TgUpdate | undefined {
    const kind = Object.keys(update).find((k) => k !== 'update_id') ?? '';
    const allowed = this.allowed?.length ? this.allowed.includes(kind) : !OPT_IN.has(kind);
    if (!allowed) return undefined;
    const id = typeof update.update_id === 'number' ? update.update_id : this.nextUpdateId;
    const stored = { ...update, update_id: id } as TgUpdate;
    this.nextUpdateId = Math.max(this.nextUpdateId, id + 1);
    this.pending.push(stored);
    this.held?.('ready');
    return stored;
  }

  /**
   * Confirms updates: a positive offset forgets those below it; a negative one keeps only the last
   * -offset updates ("All previous updates will be forgotten").
   */
  confirm(offset: number | undefined): void {
    if (offset === undefined || offset === 0) return;
    this.pending =
      offset > 0
        ? this.pending.filter((u) => u.update_id >= offset)
        : this.pending.slice(Math.max(0, this.pending.length + offset));
  }

  /** The first `limit` unconfirmed updates. */
  ready(limit: number): TgUpdate[] {
    return this.pending.slice(0, limit);
  }

  /** Unconfirmed updates, in order (for tests). */
  unconfirmed(): TgUpdate[] {
    return [...this.pending];
  }

  /**
   * Holds a long poll until an update arrives, `ms` pass, another getUpdates comes (conflict) or
   * `closed` aborts (the client went away).
   */
  hold(ms: number, closed: AbortSignal): Promise<HoldEnd> {
    this.held?.('conflict');
    return new Promise((resolve) => {
      const end = (how: HoldEnd) => {
        clearTimeout(timer);
        closed.removeEventListener('abort', onClose);
        if (this.held === end) this.held = undefined;
        resolve(how);
      };
      const onClose = () => end('closed');
      const timer = setTimeout(() => end('timeout'), ms);
      closed.addEventListener('abort', onClose);
      this.held = end;
    });
  }

  /** Ends a held long poll (the server stops). */
  release(): void {
    this.held?.('closed');
  }
}
