import { existsSync, readFileSync, rmSync } from 'node:fs';
import { isPipitError, PipitError } from '../../core/errors.ts';
import type { Services, UserConfigPort } from '../../core/services.ts';
import { historyDir, keepPrevious, writeAtomic } from './atomic-write.ts';

/** The service's configuration port, or the error that says there is none to edit. */
export function configPort(services: Services): UserConfigPort {
  const port = services.userConfig;
  if (!port)
    throw new PipitError('UNAVAILABLE', 'automations: this service has no configuration to edit');
  return port;
}

function unwritable(file: string, err: unknown): PipitError {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  return new PipitError(
    code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'FORBIDDEN' : 'INTERNAL',
    `automations: cannot write ${file} (${code}): Pipit needs write access to it and its folder`,
    { cause: err },
  );
}

/**
 * Writes a checked change and applies it as a reload does. The file's previous version is copied
 * under the workdir's `automations-history/` first (the newest 20 per file are kept); the write is
 * atomic. A reload that refuses the new text (something changed since the check) puts the
 * previous text back, so the file and the running automations stay as they were.
 *
 * @example
 * await applyChange(services, '/etc/pipit/automations.yaml', text);
 */
export async function applyChange(services: Services, file: string, text: string): Promise<void> {
  const port = configPort(services);
  const workdir = services.pipitFiles?.().workdir;
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : null;
  try {
    if (workdir) keepPrevious(file, historyDir(workdir));
    writeAtomic(file, text);
  } catch (err) {
    throw unwritable(file, err);
  }
  try {
    await port.reload();
  } catch (err) {
    if (previous === null) rmSync(file, { force: true });
    else writeAtomic(file, previous);
    const reason = isPipitError(err) ? err.message : String(err);
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `the change was not applied and ${file} is as it was: ${reason}`,
      { cause: err },
    );
  }
}
