import { z } from 'zod';
import { actionsFor } from '../../core/action.ts';
import { inventory } from './inventory.ts';
import type { AutomationsState } from './state.ts';
import { summarize } from './summary.ts';
import type { KeyLines } from './summary.ts';
import { AutomationKind, ListOutput } from './wire.ts';

const defineAction = actionsFor<AutomationsState>();

/**
 * `automations.list`: every procedure, event hook, web hook and cron, from the YAML files and the
 * scripts, with where it is defined, whether it is on, its last run and (crons) its next one.
 *
 * @example
 * await run('automations.list', { kind: 'cron', failing: true });
 * // {automations: [{name: 'cron.Nightly', kind: 'cron', enabled: true, last_run: {outcome: 'failed', ...}, ...}]}
 */
export const list = defineAction({
  name: 'list',
  summary:
    'Lists the automations (procedures, event hooks, web hooks, crons) with their source, switch, last and next run.',
  params: {
    kind: AutomationKind.optional().describe('only this kind'),
    search: z
      .string()
      .max(256)
      .optional()
      .describe('text in the name, file, condition or schedule (any case)'),
    failing: z.boolean().optional().describe('true: only those whose last run failed'),
    disabled: z
      .boolean()
      .optional()
      .describe('true: only those switched off; false: only those on'),
  },
  result: ListOutput,
  run: (args, { state, services }): ListOutput => {
    const needle = args.search?.toLowerCase();
    const lines: KeyLines = new Map();
    const automations = inventory(services)
      .filter((a) => args.kind === undefined || a.kind === args.kind)
      .map((a) => summarize(services, state, a, lines))
      .filter(
        (a) =>
          (args.failing === undefined || (a.last_run?.outcome === 'failed') === args.failing) &&
          (args.disabled === undefined || !a.enabled === args.disabled) &&
          (needle === undefined ||
            [a.name, a.source.file, a.condition ?? '', a.schedule ?? '', a.url ?? '']
              .join('\n')
              .toLowerCase()
              .includes(needle)),
      );
    return { automations };
  },
});
