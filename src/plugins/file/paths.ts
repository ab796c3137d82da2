import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { PipitError } from '../../core/errors.ts';
import { fsError } from './errors.ts';
import { OwnFiles, expandHome, inside } from './own-files.ts';
import type { Intent } from './own-files.ts';
import { WalkError, walk } from './walk.ts';
import type { Walked } from './walk.ts';

export { expandHome } from './own-files.ts';

/** Which path argument of which action is being resolved, for messages. */
export interface PathUse {
  action: string;
  param: string;
}

/** How to resolve a path: see {@link PathGuard.open}. */
export interface OpenOpts {
  /** Resolve a symbolic link in the last component (default true). */
  follow?: boolean;
  /** Create missing parent directories with this mode (after checking each is allowed). */
  parents?: number;
  /** What the action does there: Pipit's own files refuse `read` and `change`. */
  intent: Intent;
}

/**
 * Resolves the paths the file plugin's actions are given and confines them to `file.roots`.
 *
 * A path is made absolute (`~` expanded; relative paths start at the first root, or the service's
 * working directory without roots) and `..` is resolved on the path as written. Then it is walked
 * from `/` one component at a time, each directory held open and every symbolic link resolved
 * here (see walk.ts); the result must be a root or under one. The action then works on the held
 * directory, never on the path by name, so a link swapped onto the path meanwhile cannot take it
 * elsewhere: what was checked is what is touched. A path through a symbolic link to nothing is
 * refused (writing through it would create its target wherever it points).
 *
 * The held directories' paths are exact: each was opened, without following links, inside the one
 * before. A directory could only leave a root afterwards by a move, and the file plugin moves
 * nothing out of its roots.
 *
 * @example
 * const guard = new PathGuard(['/srv/data']);
 * await guard.with({ action: 'file.read', param: 'file' }, 'a.txt', { intent: 'read' }, (w) => readFile(w.at));
 * await guard.open({ action: 'file.read', param: 'file' }, '/etc/passwd', { intent: 'read' }); // throws FORBIDDEN
 */
export class PathGuard {
  /** The roots with their own symbolic links resolved; undefined = no confinement. */
  readonly roots: readonly string[] | undefined;
  private readonly base: string;
  readonly own: OwnFiles;

  constructor(roots: readonly string[] | undefined, own: OwnFiles = new OwnFiles(() => undefined)) {
    this.own = own;
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
   * Refuses (FORBIDDEN) to `verb` ("moved", "removed") a path that is a root or holds one (roots
   * may be nested, and deleting or moving a folder would take the roots inside it along), or that
   * holds Pipit's own files.
   *
   * @example
   * state.guard.refuseRoot('file.delete', '"file"', resolved, 'removed');
   */
  refuseRoot(action: string, label: string, path: string, verb: string): void {
    this.own.refuseHolder(action, label, path, verb);
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

  /** The path as written, made absolute; a NUL character is refused. */
  absolute(use: PathUse, path: string): string {
    if (path.includes('\0')) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${use.action}: "${use.param}" contains a NUL character`,
      );
    }
    return resolve(this.base, expandHome(path));
  }

  // A walk may start at the outermost root holding the path, opened by its path: the directories
  // above it are outside every root, where no file action can put a link.
  private readonly startFor = (absolute: string): string => {
    let start = '/';
    for (const root of this.roots ?? []) {
      if (inside(absolute, root) && (start === '/' || root.length < start.length)) start = root;
    }
    return start;
  };

  private confine(use: PathUse, absolute: string, real: string): void {
    if (!this.roots || this.roots.some((root) => inside(real, root))) return;
    const via = real === absolute ? '' : ` (it resolves to ${real})`;
    throw new PipitError(
      'FORBIDDEN',
      `${use.action}: "${use.param}" ${absolute}${via} is outside file.roots (${this.roots.join(', ')}): use a path under one of them, or add its directory to file.roots in the configuration`,
      { details: { path: absolute, resolved: real } },
    );
  }

  /**
   * Walks `path` and checks it (roots, Pipit's own files); the caller works on the result's `at`
   * and must `close()` it. A missing directory on the way is ACTION_FAILED "does not exist" (with
   * `errno` ENOENT in the details), after the path it would have had is checked against the roots.
   */
  async open(use: PathUse, path: string, opts: OpenOpts): Promise<Walked> {
    const absolute = this.absolute(use, path);
    let walked: Walked;
    try {
      walked = await walk(absolute, {
        follow: opts.follow ?? true,
        startFor: this.startFor,
        ...(opts.parents === undefined
          ? {}
          : {
              parents: {
                mode: opts.parents,
                mayCreate: (dir: string) => {
                  this.confine(use, absolute, dir);
                  this.own.check(use, dir, 'change');
                },
              },
            }),
      });
    } catch (err) {
      if (!(err instanceof WalkError)) throw fsError(use.action, absolute, err);
      if (err.code === 'DANGLING') {
        throw new PipitError(
          'ACTION_FAILED',
          `${use.action}: "${use.param}" ${absolute} goes through a symbolic link to something that does not exist: delete the link, or use the path it should point to`,
          { details: { path: absolute }, cause: err },
        );
      }
      this.confine(use, absolute, err.path);
      throw fsError(use.action, err.path, err);
    }
    try {
      this.confine(use, absolute, walked.path);
      this.own.check(use, walked.path, opts.intent);
    } catch (err) {
      await walked.close();
      throw err;
    }
    return walked;
  }

  /**
   * {@link open}, then `fn` on the result, closed afterwards whatever happens.
   *
   * @example
   * const size = await guard.with(use, 'a.txt', { intent: 'look' }, async (w) => (await lstat(w.at)).size);
   */
  async with<T>(
    use: PathUse,
    path: string,
    opts: OpenOpts,
    fn: (walked: Walked) => Promise<T>,
  ): Promise<T> {
    const walked = await this.open(use, path, opts);
    try {
      return await fn(walked);
    } finally {
      await walked.close();
    }
  }
}
