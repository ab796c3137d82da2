import { Counter } from 'prom-client';
import type { Registry as PromRegistry } from 'prom-client';
import type { Registry } from '../core/registry.ts';
import type { FinishedRun, RunObserver } from '../core/runs.ts';
import { actionLabel, UNKNOWN_ACTION } from './action-label.ts';
import { RequestTable } from './request-table.ts';
import type { RequestCell } from './request-table.ts';
import { tableCounter, tableHistogram } from './table-metrics.ts';

// Names as sent that resolved to a known action (aliases, procedures removed by a reload since):
// a bound on the lookup cache, not on the labels, which the registry bounds.
const MAX_NAMES = 10_000;

/**
 * Latency buckets of requests, in seconds: from a cached echo (sub-ms) to a slow procedure.
 *
 * @example
 * histogram_quantile(0.99, sum by (le) (rate(pipit_request_duration_seconds_bucket[5m])))
 */
export const REQUEST_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/** What {@link runMetrics} makes: the run observer, and the count of events hooks skipped. */
export interface RunMetrics {
  observe: RunObserver;
  hookSkipped: (hook: string) => void;
}

/**
 * The metrics of finished runs, fed by a run observer:
 *
 * - `pipit_requests_total{transport, action, outcome}` and
 *   `pipit_request_duration_seconds{transport, action, outcome}`: top-level actions and
 *   procedures (what a client, the CLI or a script asked for);
 * - `pipit_procedure_steps_total{action, outcome}`: actions run inside a procedure, hook or cron;
 * - `pipit_hook_runs_total{hook, outcome}` and `pipit_cron_runs_total{cron, outcome}`; a hook's
 *   outcome is also `skipped` for an event it did not run on, having too many runs going.
 *
 * `action` is bounded by the registry (unknown names are `(unknown)`); hook and cron names come
 * from the configuration and scripts.
 *
 * @example
 * const { observe, hookSkipped } = runMetrics(promRegistry, service.registry);
 * services.runs.add(observe);
 */
export function runMetrics(register: PromRegistry, registry: Registry): RunMetrics {
  const registers = [register];
  // Requests are recorded once per call on the hot path: into a plain table, read at scrape time.
  const table = new RequestTable(REQUEST_BUCKETS);
  const labelNames = ['transport', 'action', 'outcome'];
  tableCounter(
    {
      name: 'pipit_requests_total',
      help: 'Requests run (actions and procedures asked for by a transport), by transport, action and outcome (ok, failed). Unknown action names are labelled "(unknown)".',
      labelNames,
      register,
    },
    table,
  );
  tableHistogram(
    {
      name: 'pipit_request_duration_seconds',
      help: 'Time from a request being understood to its answer, in seconds, by transport, action and outcome.',
      labelNames,
      register,
    },
    table,
  );
  const steps = new Counter({
    name: 'pipit_procedure_steps_total',
    help: 'Actions run as steps of a procedure, hook or cron, by action and outcome.',
    labelNames: ['action', 'outcome'] as const,
    registers,
  });
  const hooks = new Counter({
    name: 'pipit_hook_runs_total',
    help: 'Event hook runs, by hook and outcome (ok, failed; skipped: an event not run on, the hook having too many runs going).',
    labelNames: ['hook', 'outcome'] as const,
    registers,
  });
  const crons = new Counter({
    name: 'pipit_cron_runs_total',
    help: 'Cron job runs, by cron and outcome (ok, failed).',
    labelNames: ['cron', 'outcome'] as const,
    registers,
  });

  // By outcome, transport and the name as sent: known names skip the registry lookup after the
  // first call, and no key is built per call (a concatenated key cost more than the rest of the
  // observation). Unknown ones, and NOT_FOUND failures (a procedure a reload removed), are looked
  // up each time and share the "(unknown)" cell, so they add no entries.
  type ByTransport = Map<string, Map<string, RequestCell>>;
  const byOutcome: Record<FinishedRun['outcome'], ByTransport> = {
    ok: new Map(),
    failed: new Map(),
  };
  let names = 0;
  const requestCell = (run: FinishedRun): RequestCell => {
    const notFound = run.error_code === 'NOT_FOUND';
    const byTransport = byOutcome[run.outcome];
    let byName = byTransport.get(run.transport);
    const hit = notFound ? undefined : byName?.get(run.name);
    if (hit) return hit;
    const action = actionLabel(registry, run.name);
    const labels = { transport: run.transport, action, outcome: run.outcome };
    const cell = table.cell(`${run.transport}\0${action}\0${run.outcome}`, () => labels);
    if (action !== UNKNOWN_ACTION && !notFound && names < MAX_NAMES) {
      if (!byName) byTransport.set(run.transport, (byName = new Map<string, RequestCell>()));
      byName.set(run.name, cell);
      names++;
    }
    return cell;
  };

  const observe = (run: FinishedRun) => {
    switch (run.kind) {
      case 'hook':
        hooks.inc({ hook: run.name, outcome: run.outcome });
        return;
      case 'cron':
        crons.inc({ cron: run.name, outcome: run.outcome });
        return;
      default:
        if (run.parent_id === null) table.observe(requestCell(run), run.duration_ms / 1000);
        else steps.inc({ action: actionLabel(registry, run.name), outcome: run.outcome });
    }
  };
  return { observe, hookSkipped: (hook) => hooks.inc({ hook, outcome: 'skipped' }) };
}
