import { setTimeout as delay } from 'node:timers/promises';
import { PipitError } from '../../../core/errors.ts';

/**
 * The plugin's clock and waits, kept in one replaceable object so tests can step time and record
 * waits (Retry-After, backoff) instead of sleeping.
 */
export interface Timers {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Real time.
 *
 * @example
 * await realTimers().sleep(100);
 */
export function realTimers(): Timers {
  return {
    now: () => Date.now(),
    async sleep(ms, signal) {
      if (ms <= 0) return;
      try {
        await delay(ms, undefined, signal ? { signal } : undefined);
      } catch (err) {
        throw new PipitError('ACTION_FAILED', 'music.spotify: the caller gave up while waiting', {
          cause: err,
        });
      }
    },
  };
}

/**
 * Runs `fn` over `items` with at most `limit` calls in flight, keeping results in input order.
 *
 * @example
 * const pages = await mapBounded([0, 50, 100], 2, (offset) => fetchPage(offset));
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (err) {
        // Stop handing out work: the first error is the answer.
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
