import { setTimeout as delay } from 'node:timers/promises';

/** The statuses retried by default when `retries` is set. */
export const DEFAULT_RETRY_ON = [429, 502, 503, 504];

/** The longest wait between two attempts that the exponential backoff reaches. */
export const MAX_BACKOFF_SECONDS = 60;

/**
 * The wait a `Retry-After` header asks for, in seconds: a number of seconds or an HTTP date;
 * undefined when absent or unreadable.
 *
 * @example
 * retryAfterSeconds('3'); // 3
 * retryAfterSeconds('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:50 GMT')); // 10
 */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/**
 * The wait before retry number `attempt` (1 for the first): `base` doubled each time, capped.
 *
 * @example
 * backoffSeconds(3, 0.5); // 2
 */
export function backoffSeconds(attempt: number, base: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, base * 2 ** (attempt - 1));
}

/**
 * Waits, or rejects as soon as `signal` aborts.
 *
 * @example
 * await sleep(1.5, signal);
 */
export async function sleep(seconds: number, signal: AbortSignal): Promise<void> {
  if (seconds > 0) await delay(seconds * 1000, undefined, { signal });
}
