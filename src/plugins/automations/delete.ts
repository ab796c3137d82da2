import { actionsFor } from '../../core/action.ts';
import { isPipitError, PipitError } from '../../core/errors.ts';
import { applyChange, configPort } from './apply.ts';
import { AutomationName } from './get.ts';
import { findAutomation, locate } from './inventory.ts';
import { staleVersion, Version } from './save.ts';
import { setDisabled } from './state.ts';
import type { AutomationsState } from './state.ts';
import { DeleteOutput } from './wire.ts';
import { replaceBlock } from './yaml-text.ts';

const defineAction = actionsFor<AutomationsState>();

/**
 * `automations.delete`: removes a YAML automation from its file (the rest of the file untouched,
 * its previous version kept under the workdir) and applies it at once. Refused while another
 * automation calls it (a procedure), and for script automations.
 *
 * @example
 * await run('automations.delete', { name: 'cron.Nightly', version: '9f…' }); // {deleted: 'cron.Nightly'}
 */
export const remove = defineAction({
  name: 'delete',
  summary:
    'Removes one YAML automation from its file (previous version kept) and applies it at once.',
  params: { name: AutomationName, version: Version },
  result: DeleteOutput,
  run: ({ name, version }, { state, services }): Promise<DeleteOutput> =>
    state.serial(async () => {
      const a = findAutomation(services, name);
      if (a.key === null)
        throw new PipitError(
          'FORBIDDEN',
          `${name} is defined by the script ${a.file}: remove it there (script automations are read-only here)`,
        );
      const located = locate(a.file, a.key);
      if (located.version !== version) throw staleVersion(name, a.file);
      const next = replaceBlock(located.split, located.block, null);
      try {
        await configPort(services).check(new Map([[a.file, next]]));
      } catch (err) {
        if (!isPipitError(err) || err.code === 'INTERNAL') throw err;
        throw new PipitError(
          'INVALID_ARGUMENTS',
          `${name} cannot be deleted: without it the configuration does not load: ${err.message}`,
          { cause: err },
        );
      }
      await applyChange(services, a.file, next);
      if (state.disabled.has(name)) setDisabled(state, name, false);
      return { deleted: name };
    }),
});
