import { ApiError, playerError } from '../http.ts';
import type { Prng } from '../random.ts';
import type { HistoryEntry } from './users.ts';

/** What the player needs from the rest of the state. */
export interface PlayerDeps {
  durationOf(uri: string): number | undefined;
  rng: Prng;
  history: HistoryEntry[];
  /** A skipped track counts as played after this many ms. */
  historyMinMs: number;
}

export type RepeatState = 'off' | 'track' | 'context';

/** What to load with `play`. */
export interface LoadRequest {
  contextUri: string | null;
  items: string[];
  /** Index in `items` to start at. */
  startIndex: number;
  positionMs: number;
}

const HISTORY_CAP = 50;

/**
 * One user's playback session. Progress is stored as an anchor (`anchorMs` at
 * `anchorAt`) and computed from the virtual clock, so advancing time needs no timers.
 */
export class Player {
  deviceId: string | null = null;
  isPlaying = false;
  contextUri: string | null = null;
  items: string[] = [];
  /** Play order over `items` (a permutation when shuffling). */
  order: number[] = [];
  pos = 0;
  current: string | null = null;
  /** The current item came from the user queue, not the context. */
  fromQueue = false;
  queue: string[] = [];
  shuffle = false;
  repeat: RepeatState = 'off';
  anchorMs = 0;
  anchorAt = 0;
  timestamp = 0;
  readonly #deps: PlayerDeps;

  /**
   * @example
   * const player = new Player({ durationOf, rng, history: [], historyMinMs: 30_000 });
   */
  constructor(deps: PlayerDeps) {
    this.#deps = deps;
  }

  /** Progress at `now`, after `settle`. */
  progress(now: number): number {
    if (!this.current) return 0;
    const raw = this.anchorMs + (this.isPlaying ? now - this.anchorAt : 0);
    return Math.min(raw, this.#duration(this.current));
  }

  /** Play through every item that ended before `now`, recording history. */
  settle(now: number): void {
    for (let guard = 0; guard < 200_000 && this.isPlaying && this.current; guard++) {
      const duration = this.#duration(this.current);
      const elapsed = this.anchorMs + (now - this.anchorAt);
      if (elapsed < duration) return;
      const endedAt = this.anchorAt + (duration - this.anchorMs);
      this.#record(this.current, endedAt);
      this.#advance(endedAt, 'auto');
    }
  }

  /** Load a context or URI list and start playing. */
  load(request: LoadRequest, now: number): void {
    this.contextUri = request.contextUri;
    this.items = request.items;
    this.order = request.items.map((_, i) => i);
    if (this.shuffle) this.#shuffleFrom(request.startIndex);
    this.pos = this.order.indexOf(request.startIndex);
    this.#start(request.items[request.startIndex]!, false, now, true);
    if (request.positionMs >= this.#duration(this.current!)) this.#advance(now, 'next');
    else this.anchorMs = request.positionMs;
  }

  /** Resume; nothing loaded = NO_SPECIFIC_TRACK, already playing = restriction. */
  resume(now: number, strict: boolean): void {
    if (!this.current) throw playerError(403, 'Restriction violated', 'NO_SPECIFIC_TRACK');
    if (this.isPlaying) {
      if (strict) throw playerError(403, 'Restriction violated', 'UNKNOWN');
      return;
    }
    this.#anchor(this.anchorMs, now);
    this.isPlaying = true;
  }

  pause(now: number, strict: boolean): void {
    if (!this.isPlaying) {
      if (strict) throw playerError(403, 'Restriction violated', 'UNKNOWN');
      return;
    }
    this.#anchor(this.progress(now), now);
    this.isPlaying = false;
  }

  next(now: number): void {
    if (!this.current) throw playerError(403, 'Restriction violated', 'NO_NEXT_TRACK');
    if (this.progress(now) >= this.#deps.historyMinMs) this.#record(this.current, now);
    this.#advance(now, 'next');
  }

  /** Restart when more than 3 s in, else step back. */
  previous(now: number): void {
    if (!this.current) throw playerError(403, 'Restriction violated', 'NO_PREV_TRACK');
    if (this.progress(now) > 3000 || this.items.length === 0) return this.#anchor(0, now);
    if (this.fromQueue) return this.#start(this.items[this.order[this.pos]!]!, false, now);
    if (this.pos > 0) this.pos--;
    else if (this.repeat === 'context') this.pos = this.order.length - 1;
    else return this.#anchor(0, now);
    this.#start(this.items[this.order[this.pos]!]!, false, now);
  }

  seek(positionMs: number, now: number): void {
    if (!this.current) throw playerError(403, 'Restriction violated', 'UNKNOWN');
    if (positionMs >= this.#duration(this.current)) return this.#advance(now, 'next');
    this.#anchor(positionMs, now);
  }

  setShuffle(on: boolean, now: number): void {
    this.shuffle = on;
    this.timestamp = now;
    if (this.items.length === 0) return;
    const currentIndex = this.order[this.pos] ?? 0;
    if (on) this.#shuffleFrom(currentIndex);
    else this.order = this.items.map((_, i) => i);
    this.pos = this.order.indexOf(currentIndex);
  }

  setRepeat(state: RepeatState, now: number): void {
    this.repeat = state;
    this.timestamp = now;
  }

  enqueue(uri: string): void {
    this.queue.push(uri);
  }

  /** The user queue, then up to `upcoming` items of the context (an emulator choice). */
  upcoming(upcoming: number): string[] {
    const rest = this.order.slice(this.pos + 1, this.pos + 1 + upcoming).map((i) => this.items[i]!);
    return [...this.queue, ...rest];
  }

  /** Move the session to another device; `play` true starts playback. */
  transfer(deviceId: string, play: boolean, now: number): void {
    this.#anchor(this.progress(now), now);
    this.deviceId = deviceId;
    if (play && this.current) this.isPlaying = true;
  }

  /** The active device went away: the session stops. */
  stop(now: number): void {
    this.#anchor(this.progress(now), now);
    this.isPlaying = false;
    this.deviceId = null;
  }

  #duration(uri: string): number {
    return this.#deps.durationOf(uri) ?? 180_000;
  }

  #anchor(ms: number, now: number): void {
    this.anchorMs = ms;
    this.anchorAt = now;
    this.timestamp = now;
  }

  #start(uri: string, fromQueue: boolean, now: number, play = this.isPlaying): void {
    this.current = uri;
    this.fromQueue = fromQueue;
    this.isPlaying = play;
    this.#anchor(0, now);
  }

  #record(uri: string, at: number): void {
    if (!uri.startsWith('spotify:track:')) return;
    const history = this.#deps.history;
    history.push({ uri, playedAt: at, contextUri: this.fromQueue ? null : this.contextUri });
    if (history.length > HISTORY_CAP) history.splice(0, history.length - HISTORY_CAP);
  }

  #advance(now: number, kind: 'auto' | 'next'): void {
    if (kind === 'auto' && this.repeat === 'track') return this.#anchor(0, now);
    const queued = this.queue.shift();
    if (queued !== undefined) return this.#start(queued, true, now);
    if (this.pos + 1 < this.order.length) {
      this.pos++;
    } else if (this.repeat !== 'off' && this.order.length > 0) {
      this.pos = 0;
    } else {
      // End of the context with repeat off: stay on the last item, paused at 0.
      this.isPlaying = false;
      return this.#anchor(0, now);
    }
    this.#start(this.items[this.order[this.pos]!]!, false, now);
  }

  #shuffleFrom(first: number): void {
    const others = this.items.map((_, i) => i).filter((i) => i !== first);
    this.order = [first, ...this.#deps.rng.shuffle(others)];
  }
}

/**
 * Parse and check the `offset` of a play request against the loaded items.
 * @example
 * startIndex({ position: 2 }, uris); // 2
 */
export function startIndex(offset: unknown, items: string[]): number {
  if (offset === undefined || offset === null) return 0;
  if (typeof offset !== 'object') throw new ApiError(400, 'Invalid offset');
  const { position, uri } = offset as { position?: unknown; uri?: unknown };
  if (position !== undefined) {
    if (
      typeof position !== 'number' ||
      !Number.isInteger(position) ||
      position < 0 ||
      position >= items.length
    ) {
      throw new ApiError(400, 'Offset position out of range');
    }
    return position;
  }
  if (uri !== undefined) {
    const index = typeof uri === 'string' ? items.indexOf(uri) : -1;
    if (index < 0) throw new ApiError(400, 'Offset uri not in context');
    return index;
  }
  return 0;
}
