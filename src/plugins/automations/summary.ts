import { readFileSync } from 'node:fs';
import type { Services } from '../../core/services.ts';
import type { Automation } from './inventory.ts';
import { conditionInWords } from './outline.ts';
import { recentRuns } from './runs-of.ts';
import { splitBlocks } from './yaml-text.ts';
import type { AutomationsState } from './state.ts';
import type { AutomationSource, AutomationSummary } from './wire.ts';

/** Key lines of the YAML files read for one answer: a file is parsed once for all its keys. */
export type KeyLines = Map<string, Map<string, number>>;

function keyLine(file: string, key: string, cache: KeyLines): number {
  let lines = cache.get(file);
  if (!lines) {
    lines = new Map();
    try {
      for (const block of splitBlocks(readFileSync(file, 'utf8'), file).blocks)
        lines.set(block.key, block.keyLine + 1);
    } catch {
      // Unreadable or changed since the last reload: its automations run as loaded, shown at line 1.
    }
    cache.set(file, lines);
  }
  return lines.get(key) ?? 1;
}

function sourceOf(a: Automation, cache: KeyLines): AutomationSource {
  if (a.key === null) return { type: 'script', file: a.file };
  return { type: 'yaml', file: a.file, line: keyLine(a.file, a.key, cache) };
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
  cache: KeyLines = new Map(),
): AutomationSummary {
  const enabled = a.kind === 'procedure' || !state.disabled.has(a.name);
  const p = a.procedure;
  return {
    name: a.name,
    kind: a.kind,
    source: sourceOf(a, cache),
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
