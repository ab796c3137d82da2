import type { PluginStatus } from '../../../src/plugins/api/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { makeApp } from '../../helpers/service.ts';

export { call } from '../call.ts';

/** What the plugin last reported with setStatus (pipit status shows it). */
export function haStatus(t: TestApp): PluginStatus | undefined {
  const plugin = t.service.registry.plugins.get('homeassistant')!;
  return (plugin.state as { status?: PluginStatus }).status;
}

/**
 * A service whose `homeassistant:` section points at `url`, fast to reconnect; `extra` is YAML
 * appended (hooks, more keys of the section indented by two spaces come first in `section`).
 */
export function haApp(
  url: string,
  token: string,
  opts: { section?: string; extra?: string } = {},
): Promise<TestApp> {
  return makeApp(`homeassistant:
  url: ${url}
  token: ${token}
  timeout_seconds: 2
  reconnect_min_seconds: 0.1
  reconnect_max_seconds: 0.3
${opts.section ?? ''}${opts.extra ?? ''}`);
}
