import { readFileSync } from 'node:fs';
import { PipitError } from '../../core/errors.ts';
import type { ProcedureEntry } from '../../core/registry.ts';
import type { Services } from '../../core/services.ts';
import { Scheduler } from '../../cron/scheduler.ts';
import type { Hook } from '../../events/hooks.ts';
import { didYouMean } from '../../lib/suggest.ts';
import { parseProcedureKey } from '../../procedures/dsl.ts';
import type { AutomationKind } from './wire.ts';
import { blockText, splitBlocks, versionOf } from './yaml-text.ts';
import type { SplitFile, TextBlock } from './yaml-text.ts';

/** A cron job as the scheduler lists it. */
export type CronInfo = ReturnType<Scheduler['list']>[number];

/** One automation of the running service, with what defines it. */
export interface Automation {
  /** `procedure.<name>`, `event.hook.<Name>` or `cron.<Name>`. */
  name: string;
  kind: AutomationKind;
  /** The YAML file or script that defines it. */
  file: string;
  /** Its YAML section key (with a procedure's parameters); null for a script's. */
  key: string | null;
  procedure?: ProcedureEntry;
  hook?: Hook;
  cron?: CronInfo;
}

/** The scheduler behind `services.cron` (the one the service built). */
export function schedulerOf(services: Services): Scheduler {
  if (services.cron instanceof Scheduler) return services.cron;
  throw new PipitError('UNAVAILABLE', 'automations: this service has no cron scheduler');
}

/**
 * The automation name of a YAML section key: `procedure.morning(volume)` → `procedure.morning`;
 * hook and cron keys are their own names.
 *
 * @example
 * automationName('procedure.sync.morning(v=1)'); // 'procedure.morning'
 */
export function automationName(key: string): string {
  if (!key.startsWith('procedure.')) return key;
  try {
    return `procedure.${parseProcedureKey(key).name}`;
  } catch {
    return key;
  }
}

/**
 * Every automation of the running service: procedures, hooks and crons from the YAML files and
 * the scripts, sorted by name.
 *
 * @example
 * inventory(services).map((a) => a.name); // ['cron.Nightly', 'event.hook.OnDoor', ...]
 */
export function inventory(services: Services): Automation[] {
  const sections = new Map<string, { key: string; source: string }>();
  for (const section of services.userConfig?.sections() ?? [])
    sections.set(automationName(section.key), section);
  const yamlKey = (name: string, file: string) => {
    const section = sections.get(name);
    return section && section.source === file ? section.key : null;
  };
  const out: Automation[] = [];
  for (const procedure of services.registry.procedures.values()) {
    const name = `procedure.${procedure.name}`;
    out.push({
      name,
      kind: 'procedure',
      file: procedure.source,
      key: yamlKey(name, procedure.source),
      procedure,
    });
  }
  for (const hook of services.events.hooks.list()) {
    const name = `event.hook.${hook.name}`;
    out.push({
      name,
      kind: hook.webhook === undefined ? 'event_hook' : 'web_hook',
      file: hook.source,
      key: yamlKey(name, hook.source),
      hook,
    });
  }
  for (const cron of schedulerOf(services).list()) {
    const name = `cron.${cron.name}`;
    out.push({ name, kind: 'cron', file: cron.source, key: yamlKey(name, cron.source), cron });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The automation called `name`; NOT_FOUND with a "did you mean" otherwise.
 *
 * @example
 * findAutomation(services, 'cron.Nightly').kind; // 'cron'
 */
export function findAutomation(services: Services, name: string): Automation {
  const all = inventory(services);
  const found = all.find((a) => a.name === name);
  if (found) return found;
  throw new PipitError(
    'NOT_FOUND',
    `no automation named "${name}"${didYouMean(
      name,
      all.map((a) => a.name),
    )} Names are config keys: procedure.<name>, event.hook.<Name>, cron.<Name> (automations.list shows them)`,
  );
}

/** A YAML automation's text in its file, as read now. */
export interface LocatedBlock {
  file: string;
  text: string;
  split: SplitFile;
  block: TextBlock;
  /** The automation's own text (comments above it included). */
  yaml: string;
  version: string;
}

/**
 * Reads the file of a YAML automation and finds its block; NOT_FOUND when the key is no longer
 * there (the file changed since the last reload).
 *
 * @example
 * locate('/etc/pipit/config.yaml', 'cron.Nightly').block.keyLine; // 12
 */
export function locate(file: string, key: string): LocatedBlock {
  const text = readFileSync(file, 'utf8');
  const split = splitBlocks(text, file);
  const block = split.blocks.find((b) => b.key === key);
  if (!block)
    throw new PipitError(
      'CONFLICT',
      `"${key}" is no longer in ${file}: the file changed since you opened it (reload, then try again)`,
    );
  const yaml = blockText(split, block);
  return { file, text, split, block, yaml, version: versionOf(yaml) };
}
