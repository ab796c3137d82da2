import type { Logger } from '../core/logger.ts';

/** Every reason a message from Redis is refused. */
export const REFUSAL_CAUSES = [
  'unsigned',
  'bad_signature',
  'malformed',
  'stale',
  'replayed',
  'wrong_target',
  'oversized',
] as const;
export type RefusalCause = (typeof REFUSAL_CAUSES)[number];

const EXPLAIN: Record<RefusalCause, string> = {
  unsigned: 'a message without a signature',
  bad_signature:
    'a message whose signature does not match (forged, altered, or signed with another redis.secret)',
  malformed: 'a signed message that is not a valid Pipit message (another Pipit version?)',
  stale: 'a signed message too old or too far in the future (copied, or clocks out of sync)',
  replayed: 'a signed message seen before (copied and pushed again)',
  wrong_target: 'a signed message addressed to another instance',
  oversized:
    'a stream entry larger than redis.max_event_bytes allows (not read: Redis sent only its size)',
};

/**
 * Counts refused messages by cause and logs them without flooding: the first of each cause is
 * logged with where it came from, later ones are summed up at most once a minute. Whoever can write
 * to Redis can push any number of messages; the log must stay readable.
 *
 * @example
 * const refusals = new Refusals(log);
 * refusals.refuse('bad_signature', { key: 'pipit:req:hall', from: 'kitchen' });
 */
export class Refusals {
  readonly counts: Record<RefusalCause, number> = Object.fromEntries(
    REFUSAL_CAUSES.map((c) => [c, 0]),
  ) as Record<RefusalCause, number>;
  readonly #log: Logger;
  readonly #intervalMs: number;
  readonly #unreported = new Map<RefusalCause, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(log: Logger, intervalMs = 60_000) {
    this.#log = log;
    this.#intervalMs = intervalMs;
  }

  refuse(cause: RefusalCause, where: { key: string; from?: string | undefined }): void {
    this.counts[cause]++;
    if (this.counts[cause] === 1) {
      this.#log.warn(
        { cause, key: where.key, claimed_from: where.from },
        `refused ${EXPLAIN[cause]} on ${where.key}; further refusals for this reason are counted and logged once a minute (inspect.instances shows the counts)`,
      );
      return;
    }
    this.#unreported.set(cause, (this.#unreported.get(cause) ?? 0) + 1);
    this.#timer ??= setTimeout(() => this.#report(), this.#intervalMs).unref();
  }

  /** Logs what is still unreported now (shutdown). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#report();
  }

  #report(): void {
    this.#timer = undefined;
    for (const [cause, count] of this.#unreported)
      this.#log.warn({ cause, count }, `refused ${count} more: ${EXPLAIN[cause]}`);
    this.#unreported.clear();
  }
}
