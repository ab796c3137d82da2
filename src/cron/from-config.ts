import type { UserSection } from '../config/load.ts';
import { PipitError } from '../core/errors.ts';
import type { Services } from '../core/services.ts';
import { actionsUsed } from '../procedures/actions-used.ts';
import { parseSteps } from '../procedures/dsl.ts';
import { stepExecutor } from '../procedures/executor.ts';
import type { Step } from '../procedures/dsl.ts';
import { runSteps } from '../procedures/runner.ts';
import { isPlainObject } from '../procedures/values.ts';
import type { CronJobDef } from './scheduler.ts';

/**
 * Compiles a YAML `cron.<name>: {cron_expression, actions, timezone?, once?}` section. With
 * `once: true`, instances of a cluster that all define it run it once per scheduled time.
 *
 * @example
 * scheduler.add(cronFromConfig(section, () => services));
 */
export function cronFromConfig(section: UserSection, services: () => Services): CronJobDef {
  const name = section.key.slice('cron.'.length);
  const fail = (what: string, cause?: unknown): never => {
    throw new PipitError('CONFIG_INVALID', `${section.source}: ${section.key}: ${what}`, { cause });
  };
  if (!name) fail('the job needs a name after "cron."');
  if (!isPlainObject(section.value))
    fail('expected a mapping with "cron_expression" and "actions"');
  const {
    cron_expression: expression,
    actions,
    timezone,
    once,
    ...rest
  } = section.value as Record<string, unknown>;
  if (Object.keys(rest).length)
    fail(
      `unknown key "${Object.keys(rest)[0]}"; a cron job has cron_expression, actions, timezone and once`,
    );
  if (once !== undefined && typeof once !== 'boolean')
    fail('"once" must be true (run once in the cluster) or false (on every instance)');
  if (typeof expression !== 'string' || !expression.trim())
    fail('"cron_expression" must be a cron string such as "0 23 * * *"');
  if (timezone !== undefined && typeof timezone !== 'string')
    fail('"timezone" must be an IANA name such as "Europe/Rome"');
  let steps: Step[] = [];
  try {
    steps = parseSteps(actions, `${section.key} actions`);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err), err);
  }
  return {
    name,
    expression: expression as string,
    timezone: timezone as string | undefined,
    source: section.source,
    calls: actionsUsed(steps),
    once: once === true,
    run: async (signal) => {
      await runSteps(
        steps,
        {},
        {
          signal,
          execute: stepExecutor(services(), { transport: 'cron', depth: 0, signal }),
          config: (key) => services().configValue(key),
        },
      );
    },
  };
}
