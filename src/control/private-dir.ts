import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { PipitError } from '../core/errors.ts';

/**
 * Makes `dir` a directory that only this process's user can enter (mode 0700), before anything is
 * created in it: created with that mode when missing, checked when present. A symbolic link, or a
 * directory another user owns, is refused (whoever controls it could reach what is created
 * inside). A directory of ours with group or other bits is set to 0700: nothing in it is trusted
 * (the socket file is replaced), and from then on nobody else can look a name up in it.
 *
 * @example
 * ensurePrivateDir('/var/lib/pipit/control');
 */
export function ensurePrivateDir(dir: string): void {
  try {
    // The mode is given at creation (the umask can only remove bits from it): no window.
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const stat = lstatSync(dir);
  const fix = `remove it and start Pipit again (it creates ${dir} itself, mode 0700)`;
  if (!stat.isDirectory())
    throw new PipitError(
      'CONFIG_INVALID',
      `${dir} must be a directory of the service's user for the control socket, and it is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}: ${fix}`,
    );
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new PipitError(
      'CONFIG_INVALID',
      `${dir} (the control socket's directory) belongs to user id ${stat.uid}, not to the service's user (${uid}): ${fix}`,
    );
  if ((stat.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}
