import { webhookOf } from '../events/from-config.ts';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Services } from '../core/services.ts';
import type { CronJobDef } from '../cron/scheduler.ts';
import type { PipitEvent } from '../events/event.ts';
import type { Hook, HookResponse } from '../events/hooks.ts';
import type { ProcedureEntry } from '../core/registry.ts';
import { compileCondition } from '../events/match.ts';
import { drainRegistrations } from './api.ts';
import { installPipitResolver } from './pipit-resolver.ts';
import type { ScriptEvent, ScriptRegistration } from './api.ts';

const SCRIPT = /\.(ts|js|mjs)$/;
const NOT_SCRIPT = /(\.d\.ts|\.test\.(ts|js|mjs))$/;

/** What loading the scripts produced: their files, failures, and registrations to install. */
export interface LoadedScripts {
  files: string[];
  failed: { file: string; error: string }[];
  procedures: ProcedureEntry[];
  hooks: Hook[];
  crons: CronJobDef[];
}

function toScriptEvent(event: PipitEvent, respond?: (r: HookResponse) => void): ScriptEvent {
  const send = (body: unknown, status = 200, headers: Record<string, string> = {}) => {
    if (!respond) throw new Error('sendResponse only works in a hook on a WebhookEvent');
    respond({ body, status, headers });
  };
  return { ...event.args, event, sendResponse: send, send_response: send };
}

function collect(
  file: string,
  entry: ScriptRegistration,
  index: number,
  services: Services,
  into: Pick<LoadedScripts, 'procedures' | 'hooks' | 'crons'>,
): void {
  const source = file;
  const stem = basename(file).replace(SCRIPT, '');
  if (entry.kind === 'procedure') {
    into.procedures.push({
      name: entry.name,
      params: entry.params,
      summary: `script procedure (${basename(file)})`,
      source,
      run: async (args) => entry.fn(args),
    });
  } else if (entry.kind === 'hook') {
    const kind = services.events.kinds.resolve(entry.event);
    const matches = compileCondition({ ...entry.filter, type: kind });
    into.hooks.push({
      name: entry.name ?? `${stem}#${index}`,
      source,
      matches,
      once: entry.once === true,
      condition: { type: kind, ...entry.filter },
      ...webhookOf({ ...entry.filter, type: kind }),
      run: async (event, ctx) => entry.fn(toScriptEvent(event, ctx.respond)),
    });
  } else {
    into.crons.push({
      name: entry.name ?? `${stem}#${index}`,
      expression: entry.expression,
      timezone: entry.timezone,
      source,
      once: entry.once === true,
      run: async () => entry.fn(),
    });
  }
}

/**
 * Loads the `.ts` (Node 24 type stripping), `.js` and `.mjs` files of `scripts_dir` in name order
 * and collects their procedures, hooks and crons, to be installed by the caller. A script that
 * fails to load is reported with its file and error and does not stop the others. `generation`
 * (a reload's number) makes Node load the files afresh instead of from its module cache; modules
 * they import themselves stay cached.
 *
 * @example
 * const { procedures, hooks, crons, failed } = await loadScripts(config.scriptsDir, services);
 */
export async function loadScripts(
  dir: string,
  services: Services,
  generation = 0,
): Promise<LoadedScripts> {
  const result: LoadedScripts = { files: [], failed: [], procedures: [], hooks: [], crons: [] };
  if (!existsSync(dir)) return result;
  installPipitResolver();
  const files = readdirSync(dir)
    .filter((f) => SCRIPT.test(f) && !NOT_SCRIPT.test(f))
    .sort()
    .map((f) => join(dir, f));
  for (const file of files) {
    drainRegistrations();
    try {
      const url = pathToFileURL(file).href;
      await import(generation ? `${url}?reload=${generation}` : url);
      const entries = drainRegistrations();
      const collected: Pick<LoadedScripts, 'procedures' | 'hooks' | 'crons'> = {
        procedures: [],
        hooks: [],
        crons: [],
      };
      entries.forEach((entry, i) => collect(file, entry, i, services, collected));
      result.procedures.push(...collected.procedures);
      result.hooks.push(...collected.hooks);
      result.crons.push(...collected.crons);
      result.files.push(file);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      services.log.error({ file, err }, `script ${file} failed to load: ${error}`);
      result.failed.push({ file, error });
    }
  }
  return result;
}
