/**
 * A first-in first-out queue whose take and drop from the front cost no copy of the rest: items
 * are read from a moving head, and the array is compacted once the head has passed half of it.
 * An array `splice(0, n)` or `shift()` moves every item behind it (V8 trims the front in place only
 * for small arrays): a queue of a million waiting items paid ~100 µs for each one added and dropped.
 *
 * @example
 * const q = new Fifo<string>();
 * q.push('a'); q.push('b'); q.push('c');
 * q.dropOldest(1);   // 1
 * q.take(5);         // ['b', 'c']
 * q.putBack(['b']);  // q.take(1) is ['b'] again
 */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** Removes up to `n` items from the front; returns how many went. */
  dropOldest(n: number): number {
    const dropped = Math.max(0, Math.min(n, this.length));
    this.#advance(dropped);
    return dropped;
  }

  /** Removes and returns up to `n` items from the front, oldest first. */
  take(n: number): T[] {
    const taken = this.#items.slice(this.#head, this.#head + Math.max(0, n));
    this.#advance(taken.length);
    return taken;
  }

  /** Puts items back at the front, in their order (what was taken and could not be handled). */
  putBack(items: readonly T[]): void {
    if (!items.length) return;
    if (this.#head >= items.length) {
      this.#head -= items.length;
      for (let i = 0; i < items.length; i++) this.#items[this.#head + i] = items[i]!;
      return;
    }
    this.#items = [...items, ...this.#items.slice(this.#head)];
    this.#head = 0;
  }

  #advance(n: number): void {
    // The slots passed are cleared, so that what was taken or dropped can be collected.
    this.#items.fill(undefined as T, this.#head, this.#head + n);
    this.#head += n;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}
