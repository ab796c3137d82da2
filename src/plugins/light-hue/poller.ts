import type { PipitError } from '../api/index.ts';
import type { Bridge, HueLight } from './bridge.ts';
import { getLights } from './bridge.ts';
import { pollSeconds } from './config.ts';

/** The state fields compared between two reads (Platypush's LightStatusChangeEvent fields). */
export const WATCHED = ['on', 'bri', 'sat', 'hue', 'ct', 'xy'] as const;

const MAX_BACKOFF_SECONDS = 30;

/** The fields of a light that changed between two reads, or null. */
export function changes(
  before: HueLight | undefined,
  after: HueLight,
): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const key of WATCHED) {
    const now = after.state?.[key];
    if (now !== undefined && JSON.stringify(now) !== JSON.stringify(before?.state?.[key]))
      out[key] = now;
  }
  return Object.keys(out).length ? out : null;
}

/**
 * Reads the lights every `poll_seconds` and raises LightStatusChangeEvent for what changed; while
 * the bridge cannot be reached it retries with backoff (1 s doubling to 30 s, with jitter) and
 * reports the link with setStatus. Ends when `signal` aborts.
 *
 * @example
 * void poll(bridge, fire, signal);
 */
export async function poll(
  bridge: Bridge,
  fire: (kind: string, fields: Record<string, unknown>) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  let previous: Record<string, HueLight> | undefined;
  const interval = pollSeconds(bridge.config);
  const base = Math.min(1, interval);
  let backoff = base;
  let wake: (() => void) | undefined;
  bridge.kick = () => wake?.();
  bridge.client.onFailure = (err: PipitError) => markDown(err.message);
  bridge.client.retryIn = () => Math.max(1, Math.ceil(backoff));

  function markDown(message: string): void {
    const detail = message.replace(/^light\.hue: /, '').replace(/; retrying in \d+ s$/, '');
    bridge.link = { connected: false, detail, retryAt: Date.now() + backoff * 1000 };
    bridge.setStatus({
      connected: false,
      detail: `${detail}; retrying in ${Math.ceil(backoff)} s`,
    });
  }

  while (!signal.aborted) {
    let delay = interval;
    if (!bridge.username) {
      bridge.setStatus({ connected: false, detail: 'not paired: run light.hue.connect' });
      delay = 3600;
    } else {
      try {
        // Past the fail-fast window: this read is the retry.
        bridge.link.retryAt = 0;
        const lights = await getLights(bridge, signal);
        bridge.link = { connected: true, detail: '', retryAt: 0 };
        backoff = base;
        bridge.setStatus({
          connected: true,
          detail: `bridge ${bridge.client.host}, ${Object.keys(lights).length} lights`,
        });
        if (previous)
          for (const [id, light] of Object.entries(lights)) {
            const changed = changes(previous[id], light);
            if (changed)
              await fire('LightStatusChangeEvent', {
                plugin_name: 'light.hue',
                light_id: id,
                light_name: light.name,
                ...changed,
              });
          }
        previous = lights;
      } catch (err) {
        if (signal.aborted) break;
        markDown((err as Error).message);
        delay = backoff * (0.8 + Math.random() * 0.4);
        backoff = Math.min(MAX_BACKOFF_SECONDS, backoff * 2);
      }
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, delay * 1000);
      wake = done;
      signal.addEventListener('abort', done);
    });
  }
}
