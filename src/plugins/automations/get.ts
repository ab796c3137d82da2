import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import { actionsFor } from '../../core/action.ts';
import { isPlainObject } from '../../procedures/values.ts';
import { findAutomation, locate } from './inventory.ts';
import { outline } from './outline.ts';
import { recentRuns } from './runs-of.ts';
import type { AutomationsState } from './state.ts';
import { summarize } from './summary.ts';
import { GetOutput } from './wire.ts';
import type { OutlineStep } from './wire.ts';
import { versionOf } from './yaml-text.ts';

const defineAction = actionsFor<AutomationsState>();

/** The automation's name, as automations.list gives it. */
export const AutomationName = z
  .string()
  .min(1)
  .max(512)
  .describe('procedure.<name>, event.hook.<Name> or cron.<Name>, as automations.list gives it');

// The step list of a section's value: a procedure's body, a hook's `then`, a cron's `actions`.
function stepsOf(key: string, value: unknown): OutlineStep[] {
  if (key.startsWith('procedure.')) return outline(value);
  if (!isPlainObject(value)) return [];
  return outline(key.startsWith('cron.') ? value.actions : value.then);
}

/**
 * `automations.get`: one automation with its YAML exactly as written in its file (comments
 * included) and a version of it for `automations.save`, its steps as a tree, its 10 latest runs,
 * and for a script automation the script's source (read-only).
 *
 * @example
 * const { yaml, version } = await run('automations.get', { name: 'cron.Nightly' });
 * await run('automations.save', { yaml: yaml.replace('23', '22'), version });
 */
export const get = defineAction({
  name: 'get',
  summary:
    'One automation: its YAML as written (comments kept), its version, its steps as a tree and its latest runs.',
  params: { name: AutomationName },
  result: GetOutput,
  run: ({ name }, { state, services }): GetOutput => {
    const a = findAutomation(services, name);
    const summary = summarize(services, state, a);
    const runs = recentRuns(services, a, 10);
    if (a.key === null) {
      const source = readFileSync(a.file, 'utf8');
      return {
        ...summary,
        yaml: '',
        version: versionOf(source),
        outline: [],
        script_source: source,
        runs,
      };
    }
    const located = locate(a.file, a.key);
    const value: unknown = (
      parseYaml(located.yaml, { customTags: [envTag] }) as Record<string, unknown>
    )[a.key];
    return {
      ...summary,
      yaml: located.yaml,
      version: located.version,
      outline: stepsOf(a.key, value),
      runs,
    };
  },
});

// `!env NAME` shown as written: the outline is for reading, the secret stays in the environment.
const envTag = { tag: '!env', resolve: (text: string) => `!env ${text}` };
