import type { Services } from '../../core/services.ts';
import type { RunsState } from '../runs/state.ts';
import type { Automation } from './inventory.ts';
import type { AutomationRun } from './wire.ts';

/**
 * The newest recorded runs of an automation (its own runs, not its steps), newest first; [] when
 * the run history is off. Runs still waiting in the history's batch are written first.
 *
 * @example
 * recentRuns(services, automation, 10)[0]?.outcome; // 'ok'
 */
export function recentRuns(services: Services, a: Automation, limit: number): AutomationRun[] {
  const runs = services.registry.plugins.get('runs')?.state as RunsState | undefined;
  if (!runs?.history) return [];
  runs.history.flush();
  const filter =
    a.kind === 'procedure'
      ? { action: a.name }
      : a.hook
        ? { action: a.hook.name, hook: a.hook.name }
        : { action: a.cron?.name, cron: a.cron?.name };
  return services.store.runs.list({ ...filter, limit }).map((run) => ({
    id: run.id,
    outcome: run.outcome,
    started_at: run.started_at,
    ...(run.errors[0] === undefined ? {} : { error: run.errors[0] }),
  }));
}
