import { expect, vi } from 'vitest';
import { serviceStatus } from '../../../src/control/commands.ts';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';

/** A service with music.mpd pointed at an MPD, and what the plugin raised and reports. */
export interface MpdApp {
  t: TestApp;
  /** Every music event raised, by short kind, in order. */
  events: Array<{ kind: string; args: Record<string, unknown> }>;
  /** What `pipit status` says of the plugin's link. */
  link(): { connected: boolean; detail?: string } | undefined;
  /** A variable set by a hook. */
  variable(name: string): unknown;
}

/**
 * Builds a service whose `music.mpd:` section has `section`'s keys (plus fast reconnection) and
 * `yaml` after it; with `connected` (the default) waits until the link is up.
 *
 * @example
 * const a = await mpdApp({ host: '127.0.0.1', port: mpd.port });
 */
export async function mpdApp(
  section: Record<string, unknown>,
  opts: { yaml?: string; connected?: boolean } = {},
): Promise<MpdApp> {
  const keys = { reconnect_min_seconds: 0.1, reconnect_max_seconds: 0.5, timeout: 2, ...section };
  const t = await makeApp(
    `music.mpd:\n${Object.entries(keys)
      .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}\n`)
      .join('')}${opts.yaml ?? ''}`,
  );
  const events: MpdApp['events'] = [];
  t.service.events.bus.subscribe(({ event }) => {
    const m = /^pipit\.message\.event\.music\.(\w+)$/.exec(event.args.type);
    if (m) events.push({ kind: m[1]!, args: event.args });
  });
  const link = () => serviceStatus(t.service).plugins.find((p) => p.name === 'music.mpd')?.link;
  const app = { t, events, link, variable: (name: string) => t.service.store.variables.get(name) };
  if (opts.connected !== false) {
    try {
      await vi.waitFor(() => expect(link()?.connected).toBe(true), { timeout: 5000 });
    } catch (err) {
      await t.close();
      throw err;
    }
  }
  return app;
}

/**
 * The plugin's own error code: execute() reports most errors of an action as ACTION_FAILED with
 * the thrown code as `reason` (UNAVAILABLE and CONFLICT pass through as they are).
 */
export function codeOf(res: { code: string | undefined; reason: unknown }): unknown {
  return res.code === 'ACTION_FAILED' && res.reason ? res.reason : res.code;
}
