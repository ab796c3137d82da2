/**
 * Counts failures per key in a sliding window and says how long a key must wait once it has failed
 * `limit` times. In memory: a restart forgets, which only ever helps the legitimate user.
 *
 * @example
 * const t = new Throttle(10, 15 * 60_000);
 * if (t.retryAfter('user:ada') > 0) reply.code(429);
 * t.fail('user:ada');
 */
export class Throttle {
  private readonly failures = new Map<string, number[]>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Seconds until the key may try again; 0 when it may try now. `limit` overrides the usual one. */
  retryAfter(key: string, limit = this.limit): number {
    const list = this.recent(key);
    if (list.length < limit) return 0;
    const oldestCounted = list[list.length - limit]!;
    return Math.max(1, Math.ceil((oldestCounted + this.windowMs - this.now()) / 1000));
  }

  fail(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.failures.set(key, list);
    if (this.failures.size > 100_000) this.prune();
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private prune(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}
