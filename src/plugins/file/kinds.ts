import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { access, lstat } from 'node:fs/promises';
import { PipitError } from '../../core/errors.ts';
import { fsError } from './errors.ts';
import { octal } from './params.ts';
import type { Walked } from './walk.ts';

/**
 * What a file-system entry is, in words for messages.
 *
 * @example
 * kindOf(await stat('/dev/null')); // 'a character device'
 */
export function kindOf(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  return st.isSymbolicLink() ? 'a symbolic link' : 'not a file';
}

/**
 * INVALID_ARGUMENTS for a path that is a device, pipe or socket where the action needs a regular file.
 *
 * @example
 * throw notRegular('file.write', 'file', '/dev/ttyUSB0', st, 'write to a regular file');
 */
export function notRegular(
  action: string,
  param: string,
  path: string,
  st: Stats,
  fix: string,
): PipitError {
  return new PipitError(
    'INVALID_ARGUMENTS',
    `${action}: "${param}" ${path} is ${kindOf(st)}, not a regular file: ${fix}`,
    { details: { path, kind: kindOf(st) } },
  );
}

/**
 * Checks a path that is about to be replaced atomically (write, append, copy target). A regular
 * file must be writable by the service user: the final rename needs only the directory's
 * permission, so without this a read-only file would be replaced silently. Devices, pipes and
 * sockets are refused, since the rename would put a regular file in their place. A missing path
 * or a directory passes (the caller handles those).
 *
 * @example
 * await checkReplaceable('file.write', 'file', walked);
 */
export async function checkReplaceable(
  action: string,
  param: string,
  target: Walked,
): Promise<void> {
  const path = target.path;
  let st: Stats;
  try {
    // lstat: the walk resolved any link here; one that appeared since is refused, not followed.
    st = await lstat(target.at);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw fsError(action, path, err);
  }
  if (st.isDirectory()) return;
  if (!st.isFile()) {
    throw notRegular(
      action,
      param,
      path,
      st,
      `${action} replaces the file as a whole and would put a regular file in its place; give the path of a regular file, or a new one`,
    );
  }
  try {
    await access(target.at, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw fsError(action, path, err);
    throw new PipitError(
      'ACTION_FAILED',
      `${action}: ${path} is not writable by the service user (mode ${octal(st.mode)}): make it writable first (file.chmod), or write to another path`,
      { cause: err, details: { path, errno: code } },
    );
  }
}
