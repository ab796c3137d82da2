import { readFileSync } from 'node:fs';
import { expect, vi } from 'vitest';
import type { PipitEvent } from '../../../src/events/event.ts';
import type { TestApp } from '../../helpers/service.ts';

export { call } from '../call.ts';

/** True once `pid` has no process, or only a zombie waiting to be reaped. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; Z = exited, not yet reaped.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Polls `check` (vi.waitFor) until it is true or `ms` pass; resolves with its last answer. */
export async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  return vi
    .waitFor(() => expect(check()).toBe(true), { timeout: ms, interval: 20 })
    .then(
      () => true,
      () => false,
    );
}

/**
 * Collects the events of the service's bus from now on; `waitFor` resolves with the first (already
 * seen or future) event that matches.
 */
export function collectEvents(t: TestApp): {
  events: PipitEvent[];
  waitFor(match: (e: PipitEvent) => boolean, ms?: number): Promise<PipitEvent>;
  stop(): void;
} {
  const events: PipitEvent[] = [];
  const waiters = new Set<{
    match: (e: PipitEvent) => boolean;
    resolve: (e: PipitEvent) => void;
  }>();
  const stop = t.service.events.subscribe(({ event }) => {
    events.push(event);
    for (const w of waiters)
      if (w.match(event)) {
        waiters.delete(w);
        w.resolve(event);
      }
  });
  return {
    events,
    stop,
    waitFor(match, ms = 10_000) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const w = { match, resolve };
        waiters.add(w);
        setTimeout(() => {
          if (waiters.delete(w)) reject(new Error(`no matching event within ${ms} ms`));
        }, ms).unref();
      });
    },
  };
}
