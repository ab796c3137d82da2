import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PipitEvent } from '../../../src/events/event.ts';
import type { PluginStatus } from '../../../src/plugins/api/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { makeApp } from '../../helpers/service.ts';

export { call } from '../call.ts';

export const NOTIFICATION = 'pipit.message.event.ntfy.NotificationEvent';

/** What the plugin last reported with setStatus (pipit status shows it). */
export function ntfyStatus(t: TestApp): PluginStatus | undefined {
  const plugin = t.service.registry.plugins.get('ntfy')!;
  return (plugin.state as { status?: PluginStatus }).status;
}

/**
 * A service whose `ntfy:` section points at `url`, quick to time out and to reconnect; `section`
 * is more keys of the section (indented by two spaces), `extra` YAML after it (hooks).
 */
export function ntfyApp(
  url: string,
  opts: { section?: string; extra?: string } = {},
): Promise<TestApp> {
  return makeApp(`ntfy:
  server_url: ${url}
  timeout_seconds: 1
  reconnect_min_seconds: 0.05
  reconnect_max_seconds: 0.2
${opts.section ?? ''}${opts.extra ?? ''}`);
}

/** Collects the NotificationEvents the service raises from now on. */
export function notifications(t: TestApp): { events: PipitEvent[]; stop: () => void } {
  const events: PipitEvent[] = [];
  const stop = t.service.events.subscribe(({ event }) => {
    if (event.args.type === NOTIFICATION) events.push(event);
  });
  return { events, stop };
}

/** Writes a file into the test app's directory and returns its path. */
export function writeFile(t: TestApp, name: string, content: string | Buffer): string {
  const path = join(t.dir, name);
  writeFileSync(path, content);
  return path;
}
