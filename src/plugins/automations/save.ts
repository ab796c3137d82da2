import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { automationsFile } from '../../config/load.ts';
import { actionsFor } from '../../core/action.ts';
import { PipitError } from '../../core/errors.ts';
import { applyChange, configPort } from './apply.ts';
import { automationName, inventory, locate } from './inventory.ts';
import { parseSubmitted } from './lines.ts';
import type { AutomationsState } from './state.ts';
import { validateSubmitted } from './validate.ts';
import { SaveOutput } from './wire.ts';
import { appendBlock, replaceBlock, splitBlocks } from './yaml-text.ts';

const defineAction = actionsFor<AutomationsState>();

/** The version parameter of save and delete. */
export const Version = z
  .string()
  .max(64)
  .describe('the version automations.get gave: a change made since then is refused (CONFLICT)');

/** The CONFLICT of a version that is no longer the automation's. */
export function staleVersion(name: string, file: string): PipitError {
  return new PipitError(
    'CONFLICT',
    `${name} changed since you opened it (in ${file}): open it again to see the change, then redo yours`,
  );
}

/**
 * `automations.save`: creates or changes one automation from its YAML. It is checked as the
 * loader checks it at start (each problem answered as INVALID_ARGUMENTS at its line), then written
 * — a new one to `automations.yaml` beside the main configuration file, an existing one in place
 * in the file that defines it, the rest of that file untouched — and applied at once, as a reload.
 *
 * @example
 * await run('automations.save', { yaml: 'cron.Nightly:\n  cron_expression: "0 23 * * *"\n  actions:\n    - action: utils.echo\n' });
 * // {name: 'cron.Nightly', version: '9f…', created: true, file: '/etc/pipit/automations.yaml'}
 */
export const save = defineAction({
  name: 'save',
  summary:
    'Creates or changes one automation from its YAML: checked as at start, written in place (comments kept), applied at once.',
  description:
    'yaml holds exactly one key (procedure.<name>, event.hook.<Name> or cron.<Name>). A new name goes to automations.yaml beside the main config file; an existing one needs the version from automations.get and is changed in the file that defines it. Script automations cannot be saved.',
  params: {
    yaml: z
      .string()
      .min(1)
      .max(256 * 1024)
      .describe('the YAML of one automation, e.g. "cron.Nightly:\\n  cron_expression: ..."'),
    version: Version.optional(),
    check: z
      .boolean()
      .default(false)
      .describe(
        'only check it, as the editor does while you type: the same answers, nothing written or applied',
      ),
  },
  result: SaveOutput,
  run: ({ yaml, version, check }, { state, services }): Promise<SaveOutput> =>
    state.serial(async () => {
      const text = `${yaml.replace(/^\s*\n/, '').replace(/\s+$/, '')}\n`;
      const submitted = parseSubmitted(text);
      const name = automationName(submitted.key);
      const existing = inventory(services).find((a) => a.name === name);
      let file: string;
      let next: string;
      if (existing) {
        if (existing.key === null)
          throw new PipitError(
            'FORBIDDEN',
            `${name} is defined by the script ${existing.file}: change it there (script automations are read-only here)`,
          );
        if (version === undefined)
          throw new PipitError(
            'CONFLICT',
            `an automation named ${name} already exists (in ${existing.file}): choose another name, or open it and save it with its version`,
          );
        const located = locate(existing.file, existing.key);
        if (located.version !== version) throw staleVersion(name, existing.file);
        file = existing.file;
        next = replaceBlock(located.split, located.block, text);
      } else {
        const main = configPort(services).path();
        if (!main)
          throw new PipitError(
            'UNAVAILABLE',
            'Pipit runs on its embedded defaults, without a configuration file: start it with one (pipit init, or --config) to save automations',
          );
        if (version !== undefined)
          throw new PipitError(
            'CONFLICT',
            `${name} changed since you opened it: it no longer exists (deleted or renamed)`,
          );
        file = automationsFile(main);
        const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
        if (splitBlocks(current, file).blocks.some((b) => automationName(b.key) === name))
          throw new PipitError(
            'CONFLICT',
            `an automation named ${name} is already in ${file} (not loaded yet: reload to see it): choose another name`,
          );
        next = appendBlock(current, text);
      }
      const warnings = (await validateSubmitted(submitted, services, file, next)).filter(
        (w) => w.includes(`${file}: ${submitted.key}`) || w.includes(name),
      );
      if (check)
        return { name, version: version ?? '', created: !existing, file, warnings, checked: true };
      await applyChange(services, file, next);
      return {
        name,
        version: locate(file, submitted.key).version,
        created: !existing,
        file,
        warnings,
      };
    }),
});
