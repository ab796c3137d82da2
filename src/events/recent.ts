import type { Delivery } from './bus.ts';

/** How many recent events `/ws/events?history=N` can replay: the newest 50. */
export const RECENT_EVENTS = 50;

/**
 * The newest events published on this instance, for `/ws/events?history=N` (the web UI's Events
 * page shows them on arrival instead of an empty list). Only references are kept, encoded when
 * a client asks: publishing an event costs one array write, whether or not anyone looks. The
 * memory held is that of the last {@link RECENT_EVENTS} events (at most that many web hook bodies
 * of `backend.http.max_body_bytes` each). {@link Events} fills it from the bus it already
 * listens to, so it takes no subscription of its own.
 *
 * @example
 * const recent = new RecentEvents(); recent.add(delivery); recent.last(10);
 */
export class RecentEvents {
  readonly #ring: (Delivery | undefined)[];
  #next = 0;

  constructor(size = RECENT_EVENTS) {
    this.#ring = new Array<Delivery | undefined>(size);
  }

  add(delivery: Delivery): void {
    this.#ring[this.#next] = delivery;
    this.#next = (this.#next + 1) % this.#ring.length;
  }

  /** The newest `n` events (at most the ring's size), oldest first. */
  last(n: number): Delivery[] {
    const size = this.#ring.length;
    const out: Delivery[] = [];
    for (let i = Math.min(n, size); i > 0; i--) {
      const d = this.#ring[(this.#next - i + size) % size];
      if (d) out.push(d);
    }
    return out;
  }
}
