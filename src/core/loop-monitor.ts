import type { Logger } from './logger.ts';

/** A synchronous stretch longer than this is worth a warning: every request waited through it. */
export const BLOCKED_WARN_MS = 1000;

/**
 * Watches the event loop and logs a warning when it was blocked (a user script or hook busy-looping,
 * a huge synchronous computation): Pipit runs scripts in its own thread, so while one computes, no
 * request, event or cron is served. A timer that should fire every `periodMs` measures how late it
 * was. Returns the function that stops it.
 *
 * @example
 * const stop = watchEventLoop(log);
 * // ... later
 * stop();
 */
export function watchEventLoop(
  log: Logger,
  opts: { periodMs?: number; warnMs?: number } = {},
): () => void {
  const periodMs = opts.periodMs ?? 250;
  const warnMs = opts.warnMs ?? BLOCKED_WARN_MS;
  let expected = performance.now() + periodMs;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - expected;
    expected = now + periodMs;
    if (late >= warnMs) {
      log.warn(
        { blocked_ms: Math.round(late) },
        `the event loop was blocked for ${Math.round(late)} ms: a script, hook or procedure ran long synchronous code, and every request waited: keep script work asynchronous, and run heavy computation in a separate process`,
      );
    }
  }, periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
