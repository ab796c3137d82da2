import type { Services } from '../../core/services.ts';
import { locate } from './inventory.ts';
import type { Automation } from './inventory.ts';
import { conditionInWords } from './outline.ts';
import { recentRuns } from './runs-of.ts';
import type { AutomationsState } from './state.ts';
import type { AutomationSource, AutomationSummary } from './wire.ts';

function sourceOf(a: Automation): AutomationSource {
  if (a.key === null) return { type: 'script', file: a.file };
  let line = 1;
  try {
    line = locate(a.file, a.key).block.keyLine + 1;
  } catch {
    // The file changed since the last reload: the automation runs as loaded, shown at its top.
  }
  return { type: 'yaml', file: a.file, line };
}

/**
 * One automation as `automations.list` shows it.
 *
 * @example
 * summarize(services, state, findAutomation(services, 'cron.Nightly')).next_run;
 */
export function summarize(
  services: Services,
  state: AutomationsState,
  a: Automation,
): AutomationSummary {
  const enabled = a.kind === 'procedure' || !state.disabled.has(a.name);
  const p = a.procedure;
  return {
    name: a.name,
    kind: a.kind,
    source: sourceOf(a),
    editable: a.key !== null,
    enabled,
    last_run: recentRuns(services, a, 1)[0] ?? null,
    next_run: a.cron && enabled ? a.cron.next : null,
    schedule: a.cron?.expression ?? null,
    timezone: a.cron?.timezone ?? null,
    url: a.hook?.webhook === undefined ? null : `/hook/${a.hook.webhook}`,
    condition: a.hook?.condition ? conditionInWords(a.hook.condition) : null,
    params: p
      ? p.params.map((name) => ({
          name,
          required: (p.required ?? []).includes(name),
          ...(p.defaults && Object.hasOwn(p.defaults, name) ? { default: p.defaults[name] } : {}),
        }))
      : [],
  };
}
