import type { Logger } from '../core/logger.ts';
import type { RunObserver } from '../core/runs.ts';
import type { Events } from './events.ts';
import { CoreKinds } from './kinds.ts';

/**
 * The observer that turns a failed hook or cron run into a `RunFailedEvent`, so that a hook can
 * react to it (send a notification, say). A failure of a run that a RunFailedEvent itself caused
 * raises nothing: a failing notifier must not trigger itself forever.
 *
 * @example
 * runs.onTrackedFailure(runFailedEvents(events, log));
 * // config.yaml: event.hook.Notify: {if: {type: RunFailedEvent, kind: cron}, then: [...]}
 */
export function runFailedEvents(events: Events, log: Logger): RunObserver {
  return (run) => {
    if (run.trigger?.event_type === CoreKinds.RunFailedEvent) return;
    events
      .emit(CoreKinds.RunFailedEvent, {
        run_id: String(run.id),
        kind: run.kind,
        name: run.name,
        error_code: run.error_code,
        errors: run.errors,
        step: run.failed_step ?? null,
        ...(run.trigger?.event_id ? { event_id: run.trigger.event_id } : {}),
        ...(run.trigger?.event_type ? { event_type: run.trigger.event_type } : {}),
      })
      .catch((err: unknown) => log.warn({ err, run: run.id }, 'could not raise RunFailedEvent'));
  };
}
