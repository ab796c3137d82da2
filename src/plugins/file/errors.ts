import { PipitError } from '../../core/errors.ts';

const WHAT: Record<string, string> = {
  ENOENT: 'does not exist',
  EACCES: 'permission denied (the service user may not access it)',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'is not a directory (or a part of the path is not)',
  EEXIST: 'already exists',
  ENOTEMPTY: 'is a directory that is not empty',
  ELOOP: 'has too many levels of symbolic links',
  ENOSPC: 'no space left on the device',
  EROFS: 'is on a read-only file system',
  ENAMETOOLONG: 'has a name that is too long',
  EBUSY: 'is busy (a mount point, or in use)',
};

/**
 * Turns a file-system error into ACTION_FAILED naming the action and the path, in words.
 *
 * @example
 * fsError('file.read', '/srv/x.txt', err); // "file.read: /srv/x.txt does not exist"
 */
export function fsError(action: string, path: string, err: unknown): PipitError {
  if (err instanceof PipitError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const what = (code && WHAT[code]) ?? (err as Error).message;
  return new PipitError('ACTION_FAILED', `${action}: ${path} ${what}`, {
    cause: err,
    details: { path, ...(code ? { errno: code } : {}) },
  });
}

/**
 * Runs a file-system call, turning its error into {@link fsError}.
 *
 * @example
 * const st = await fsCall('file.stat', path, () => stat(path));
 */
export async function fsCall<T>(action: string, path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw fsError(action, path, err);
  }
}
