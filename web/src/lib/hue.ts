import { api, ApiError } from './api.ts';
import type { ResponseMessage } from './api.ts';

/** What `light.hue.status` answers (null: the plugin has no configuration section). */
export interface HueStatus {
  bridge: string;
  paired: boolean;
  connected: boolean;
  detail: string;
  lights: Array<{ id: string; name: string; on?: boolean }>;
}

async function run<T>(action: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = await api<ResponseMessage>('POST', '/execute', { type: 'request', action, args });
  const errors = res.response?.errors ?? [];
  // An action's failure comes as an HTTP 200 with errors: shown like any other API error.
  if (errors.length) throw new ApiError(200, errors);
  return res.response?.output as T;
}

/**
 * The Hue bridge link, or null when `light.hue` is off (the action is then unknown: 404).
 *
 * @example
 * const status = await fetchHueStatus(); // { paired: false, connected: false, … }
 */
export async function fetchHueStatus(): Promise<HueStatus | null> {
  try {
    return await run<HueStatus>('light.hue.status');
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * Pairs with the bridge: the user has just pressed its link button. Waits up to 30 s.
 *
 * @example
 * await connectHue();
 */
export function connectHue(): Promise<{ paired: boolean; already: boolean }> {
  return run('light.hue.connect', { timeout_seconds: 30 });
}
