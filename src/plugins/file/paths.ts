import { realpathSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { PipitError } from '../../core/errors.ts';
import { fsError } from './errors.ts';

/**
 * Expands a leading `~` to the service user's home directory.
 *
 * @example
 * expandHome('~/notes'); // '/home/pi/notes'
 */
export function expandHome(path: string): string {
  if (path === '~') return homedir();
  return path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Which path argument of which action is being resolved, for messages. */
export interface PathUse {
  action: string;
  param: string;
}

/**
 * Resolves the paths the file plugin's actions are given and confines them to `file.roots`.
 *
 * A path is made absolute (`~` expanded; relative paths start at the first root, or the service's
 * working directory without roots), `..` is resolved on the path as written, then every symbolic link
 * is resolved; the result must be a root or under one. The caller then works on that resolved path,
 * never on the text it was given, so what was checked is what is touched. A path through a symbolic
 * link to nothing is refused (writing through it would create its target wherever it points).
 *
 * @example
 * const guard = new PathGuard(['/srv/data']);
 * await guard.resolve({ action: 'file.read', param: 'file' }, 'notes/../a.txt'); // '/srv/data/a.txt'
 * await guard.resolve({ action: 'file.read', param: 'file' }, '/etc/passwd'); // throws FORBIDDEN
 */
export class PathGuard {
  /** The roots with their own symbolic links resolved; undefined = no confinement. */
  readonly roots: readonly string[] | undefined;
  private readonly base: string;

  constructor(roots: readonly string[] | undefined) {
    this.roots = roots?.map((root) => {
      const absolute = resolve(expandHome(root));
      try {
        return realpathSync(absolute);
      } catch (err) {
        throw new PipitError(
          'CONFIG_INVALID',
          `file.roots: ${absolute} ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be used (${(err as Error).message})`}: create it, or remove it from file.roots`,
          { cause: err },
        );
      }
    });
    this.base = this.roots?.[0] ?? process.cwd();
  }

  /**
   * Refuses (FORBIDDEN) to `verb` ("moved", "removed") a path that is a root or holds one: roots
   * may be nested, and deleting or moving a folder would take the roots inside it along.
   *
   * @example
   * state.guard.refuseRoot('file.delete', '"file"', resolved, 'removed');
   */
  refuseRoot(action: string, label: string, path: string, verb: string): void {
    const root = this.roots?.find((r) => inside(r, path));
    if (root === undefined) return;
    throw new PipitError(
      'FORBIDDEN',
      root === path
        ? `${action}: ${label} ${path} is one of file.roots and cannot be ${verb}`
        : `${action}: ${label} ${path} holds ${root}, one of file.roots, and cannot be ${verb}: ${verb === 'moved' ? 'move' : 'remove'} what is in it instead, or take ${root} out of file.roots`,
      { details: { path, root } },
    );
  }

  /**
   * The path the action may touch. With `follow: false` the last component is not resolved (the
   * action works on a symbolic link itself: delete, move, lstat), only the directory it is in.
   */
  async resolve(use: PathUse, path: string, opts: { follow?: boolean } = {}): Promise<string> {
    if (path.includes('\0')) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${use.action}: "${use.param}" contains a NUL character`,
      );
    }
    const absolute = resolve(this.base, expandHome(path));
    const follow = opts.follow ?? true;
    // Without roots there is nothing to confine, but a write must still go through a symbolic link
    // to its target: replacing the path as written would replace the link itself.
    if (!this.roots) return follow ? this.realPath(use, absolute) : absolute;
    const parent = dirname(absolute);
    const real =
      follow || parent === absolute
        ? await this.realPath(use, absolute)
        : join(await this.realPath(use, parent), basename(absolute));
    if (!this.roots.some((root) => inside(real, root))) {
      const via = real === absolute ? '' : ` (it resolves to ${real})`;
      throw new PipitError(
        'FORBIDDEN',
        `${use.action}: "${use.param}" ${absolute}${via} is outside file.roots (${this.roots.join(', ')}): use a path under one of them, or add its directory to file.roots in the configuration`,
        { details: { path: absolute, resolved: real } },
      );
    }
    return real;
  }

  // realpath() for paths that may not exist yet: the deepest existing ancestor, resolved, plus the rest.
  private async realPath(use: PathUse, absolute: string): Promise<string> {
    try {
      return await realpath(absolute);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        throw fsError(use.action, absolute, err);
    }
    const st = await lstat(absolute).catch(() => undefined);
    if (st?.isSymbolicLink()) {
      throw new PipitError(
        'ACTION_FAILED',
        `${use.action}: "${use.param}" ${absolute} goes through a symbolic link to something that does not exist: delete the link, or use the path it should point to`,
        { details: { path: absolute } },
      );
    }
    const parent = dirname(absolute);
    if (parent === absolute) return absolute;
    return join(await this.realPath(use, parent), basename(absolute));
  }
}
