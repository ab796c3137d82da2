import type { UserSection } from '../config/load.ts';
import { PipitError } from '../core/errors.ts';
import type { ProcedureEntry } from '../core/registry.ts';
import type { Services } from '../core/services.ts';
import { actionsUsed } from './actions-used.ts';
import { parseProcedure } from './dsl.ts';
import { stepExecutor } from './executor.ts';
import { runProcedure } from './runner.ts';

/**
 * Compiles a YAML `procedure.<name>(args)` section into a registry entry. Errors (bad key, bad
 * step, bad expression) are CONFIG_INVALID naming the file.
 *
 * @example
 * registry.addProcedure(procedureFromConfig(section, () => services));
 */
export function procedureFromConfig(
  section: UserSection,
  services: () => Services,
): ProcedureEntry {
  let def;
  try {
    def = parseProcedure(section.key, section.value);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new PipitError('CONFIG_INVALID', `${section.source}: ${message}`, { cause: err });
  }
  return {
    name: def.name,
    params: def.params,
    required: def.params.filter((p) => !Object.hasOwn(def.defaults, p)),
    defaults: def.defaults,
    summary: `YAML procedure (${def.steps.length} step${def.steps.length === 1 ? '' : 's'})`,
    source: section.source,
    calls: actionsUsed(def.steps),
    run: (args, ctx) =>
      runProcedure(def, args, {
        execute: stepExecutor(services(), {
          transport: 'procedure',
          depth: ctx.depth,
          signal: ctx.signal,
        }),
        signal: ctx.signal,
        config: (key) => services().configValue(key),
      }),
  };
}
