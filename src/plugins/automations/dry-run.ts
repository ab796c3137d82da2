import { parse as parseYaml } from 'yaml';
import { PipitError } from '../../core/errors.ts';
import type { Services } from '../../core/services.ts';
import type { PipitEvent } from '../../events/event.ts';
import { compileCondition } from '../../events/match.ts';
import { compileBindings } from '../../events/phrase.ts';
import { parseProcedure, parseSteps } from '../../procedures/dsl.ts';
import { dryRunExecutor } from '../../procedures/executor.ts';
import type { DryRunStep } from '../../procedures/executor.ts';
import { runProcedure, runSteps } from '../../procedures/runner.ts';
import { isPlainObject } from '../../procedures/values.ts';
import { locate } from './inventory.ts';
import type { Automation } from './inventory.ts';
import type { TestOutput } from './wire.ts';

const envTag = { tag: '!env', resolve: (text: string) => `!env ${text}` };

function toSteps(recorded: DryRunStep[]): NonNullable<TestOutput['steps']> {
  return recorded.map((s) => ({ action: s.action, args: s.args, skipped: 'dry run' }));
}

/**
 * Runs a YAML automation as its file has it now without calling any action: conditions and `${}`
 * expressions are evaluated, and the action steps that would run are returned with their
 * arguments evaluated. A hook is tried on `event` (its condition first).
 *
 * @example
 * await dryRun(services, findAutomation(services, 'cron.Nightly'), {}, undefined, signal);
 * // {steps: [{action: 'utils.echo', args: {text: 'night'}, skipped: 'dry run'}]}
 */
export async function dryRun(
  services: Services,
  a: Automation,
  args: Record<string, unknown>,
  event: PipitEvent | undefined,
  signal: AbortSignal,
): Promise<TestOutput> {
  if (a.key === null)
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${a.name} is defined by the script ${a.file}: a script cannot be dry-run (its code would run); test it without dry_run`,
    );
  const { yaml } = locate(a.file, a.key);
  const value: unknown = (parseYaml(yaml, { customTags: [envTag] }) as Record<string, unknown>)[
    a.key
  ];
  const recorded: DryRunStep[] = [];
  const deps = {
    execute: dryRunExecutor(recorded),
    signal,
    config: (key: string) => services.configValue(key),
  };
  let output: unknown;
  if (a.kind === 'procedure') {
    output = await runProcedure(parseProcedure(a.key, value), args, deps);
  } else if (a.kind === 'cron') {
    const body = isPlainObject(value) ? value.actions : undefined;
    output = await runSteps(parseSteps(body, `${a.key} actions`), {}, deps);
  } else {
    const section = isPlainObject(value) ? value : {};
    const condition = section.if;
    if (!event) throw new PipitError('INTERNAL', 'a hook is tried on an event');
    if (!compileCondition(condition)(event.args))
      return { matched: false, event: event.args, steps: [] };
    const bindings = compileBindings(condition)(event.args);
    output = await runSteps(
      parseSteps(section.then, `${a.key} then`),
      { ...event.args, ...bindings, event: event.args },
      deps,
    );
    return { matched: true, event: event.args, steps: toSteps(recorded), output: output ?? null };
  }
  return { steps: toSteps(recorded), output: output ?? null };
}
