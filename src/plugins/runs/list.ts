import { z } from 'zod';
import { actionsFor } from '../../core/action.ts';
import { PipitError } from '../../core/errors.ts';
import { RUN_ID } from '../../store/runs.ts';
import type { RunsState } from './state.ts';

const defineAction = actionsFor<RunsState>();

/**
 * A run id as `runs.list` shows it (a decimal string).
 *
 * @example
 * RunId.parse('1795434578123776');
 */
export const RunId = z
  .string()
  .regex(RUN_ID, 'must be a run id from runs.list, such as "1795434578123776"')
  .describe('the run id, from runs.list');

/** A time given as ISO 8601 or epoch seconds (Platypush clients send the latter). */
const Time = z
  .union([z.string(), z.number()])
  .optional()
  .describe('ISO 8601 time (2026-11-23T18:00:00Z) or epoch seconds');

/**
 * `runs.list`: recorded runs, newest first, filtered. Steps of procedures, hooks and crons are left
 * out unless `include_steps` (they show in `runs.get`).
 *
 * @example
 * await run('runs.list', { outcome: 'failed', transport: 'cron', limit: 20 });
 * // {runs: [{id, kind: 'cron', name: 'Nightly', outcome: 'failed', errors: [...], steps: 2, ...}], next_before: null}
 */
export const list = defineAction({
  name: 'list',
  summary: 'Lists recorded runs, newest first: filter by action, outcome, transport, time or text.',
  params: {
    action: z
      .string()
      .max(512)
      .optional()
      .describe('action, procedure (procedure.x), hook or cron name'),
    outcome: z.enum(['ok', 'failed']).optional().describe('only runs that succeeded, or failed'),
    transport: z
      .string()
      .max(64)
      .optional()
      .describe('what started it: http, ws, cli, library, hook, webhook, cron, procedure'),
    hook: z.string().max(512).optional().describe('only runs of (or inside) this hook'),
    cron: z.string().max(512).optional().describe('only runs of (or inside) this cron job'),
    event_id: z.string().max(128).optional().describe('only runs caused by this event'),
    since: Time,
    until: Time,
    text: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe('text in the name, arguments, errors or output'),
    include_steps: z
      .boolean()
      .default(false)
      .describe('also list the steps of procedures, hooks and crons'),
    before: RunId.optional().describe('the next page: runs older than this run id'),
    limit: z.number().int().min(1).max(500).default(50).describe('how many runs (1-500)'),
  },
  // Sliced (the event loop is served between slices): a filter that skips no batch unparsed
  // reads the whole history.
  run: async (args, { state, services }) => {
    const history = requireHistory(state);
    history.flush();
    const { since, until, ...rest } = args;
    const runs = await services.store.runs.listSliced({
      ...rest,
      since: since === undefined ? undefined : epochMs(since, 'since'),
      until: until === undefined ? undefined : epochMs(until, 'until'),
      // An event's runs are hook runs and their steps: both are asked for by event id.
      include_steps: rest.include_steps || rest.event_id !== undefined,
    });
    return {
      runs,
      next_before: runs.length === args.limit ? (runs.at(-1)?.id ?? null) : null,
    };
  },
});

/** The history writer, or the error that says how to turn it on. */
export function requireHistory(state: RunsState): NonNullable<RunsState['history']> {
  if (!state.history)
    throw new PipitError(
      'UNAVAILABLE',
      'the run history is off (runs.record: false in the config): set it to true and reload to record runs',
    );
  return state.history;
}

function epochMs(value: string | number, name: string): number {
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(value);
  if (!Number.isFinite(ms))
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `runs.list: "${name}" must be an ISO 8601 time such as 2026-11-23T18:00:00Z or epoch seconds, got ${JSON.stringify(value)}`,
    );
  return ms;
}
