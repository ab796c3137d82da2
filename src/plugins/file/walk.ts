import { constants, existsSync } from 'node:fs';
import { chmod, lstat, mkdir, open, readlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';

// Why this file exists: checking a path (realpath, then "is it under a root?") and then using the
// path by its name leaves a window in which a directory on it can be swapped for a symbolic link
// to elsewhere, and the kernel follows the link when the name is used. Node has no openat(2), but
// on Linux `/proc/self/fd/<fd>/<name>` is resolved by the kernel relative to the directory the
// descriptor holds, whatever has happened to that directory's path since. So a path is walked one
// component at a time from `/`, each directory opened relative to the one before with O_NOFOLLOW,
// every symbolic link read and resolved here (never by the kernel), and the action then works on
// `/proc/self/fd/<parent>/<name>`: the directory that was checked is the directory that is used.
const PROC = process.platform === 'linux' && existsSync('/proc/self/fd');
// O_PATH (Linux): a handle for walking, which needs only search permission on the directory, as a
// path lookup does (O_RDONLY would need read permission and fail on a mode 0711 home directory).
const O_PATH = PROC ? 0o10000000 : constants.O_RDONLY;
const DIR_FLAGS = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const MAX_LINKS = 40;

/** A directory held open during a walk, with the symlink-free path it had when it was opened. */
export interface HeldDir {
  handle: FileHandle;
  path: string;
}

/**
 * How the kernel is to reach a held directory: through its descriptor on Linux; elsewhere (no
 * /proc) by its path, which leaves the window this file closes on Linux open.
 *
 * @example
 * await readdir(viaDir(dir));
 */
export function viaDir(dir: HeldDir): string {
  return PROC ? `/proc/self/fd/${dir.handle.fd}` : dir.path;
}

/**
 * Opens `name` inside `dir` as a directory, without following a symbolic link.
 *
 * @example
 * const child = await openDirIn(dir, 'sub'); // throws ENOTDIR for a file or a link
 */
export async function openDirIn(dir: HeldDir, name: string): Promise<HeldDir> {
  const handle = await open(`${viaDir(dir)}/${name}`, DIR_FLAGS);
  return { handle, path: join(dir.path, name) };
}

/**
 * chmod of `at` itself, never of what a symbolic link there points to (Linux has no lchmod: the
 * entry is opened without following, and changed through its descriptor).
 *
 * @example
 * await chmodNoFollow(walked.at, 0o640);
 */
export async function chmodNoFollow(at: string, mode: number): Promise<void> {
  if (!PROC) return chmod(at, mode);
  const handle = await open(at, O_PATH | constants.O_NOFOLLOW);
  try {
    if ((await handle.stat()).isSymbolicLink()) {
      throw Object.assign(new Error(`ELOOP: is a symbolic link, '${at}'`), { code: 'ELOOP' });
    }
    await chmod(`/proc/self/fd/${handle.fd}`, mode);
  } finally {
    await handle.close();
  }
}

/**
 * The end of a walk: `name` inside the held directory `parent`. Use `at` (never `path`) for file
 * system calls; `path` is for messages, outputs and checks. `close()` releases the directories.
 */
export class Walked {
  readonly path: string;
  private readonly dirs: HeldDir[];
  readonly name: string;

  constructor(dirs: HeldDir[], name: string) {
    this.dirs = dirs;
    this.name = name;
    this.path = name === '' ? this.parent.path : join(this.parent.path, name);
  }

  /** The directory holding the last component (for `/` itself, `/`). */
  get parent(): HeldDir {
    return this.dirs[this.dirs.length - 1]!;
  }

  /** The last component as the kernel should reach it: relative to the held parent. */
  get at(): string {
    return this.name === '' ? viaDir(this.parent) : `${viaDir(this.parent)}/${this.name}`;
  }

  /** The held parent directory as the kernel should reach it. */
  get dirAt(): string {
    return viaDir(this.parent);
  }

  /** `at` for another name in the same directory (temporary files, a name inside a target). */
  sibling(name: string): string {
    return `${viaDir(this.parent)}/${name}`;
  }

  /** The held directory whose path is `path`, if the walk went through it. */
  held(path: string): HeldDir | undefined {
    return this.dirs.find((d) => d.path === path);
  }

  async close(): Promise<void> {
    await Promise.all(this.dirs.splice(0).map((d) => d.handle.close().catch(() => undefined)));
  }
}

/** Why a walk stopped early; the path is what the walk reached plus the rest, for messages. */
export class WalkError extends Error {
  readonly code: 'ENOENT' | 'ENOTDIR' | 'ELOOP' | 'DANGLING';
  readonly path: string;
  constructor(code: WalkError['code'], path: string, cause?: unknown) {
    super(`${code}: ${path}`, cause === undefined ? undefined : { cause });
    this.code = code;
    this.path = path;
  }
}

interface Step {
  name: string;
  /** Came from a symbolic link's target: a missing one means the link points to nothing. */
  fromLink: boolean;
}

const steps = (path: string, fromLink: boolean): Step[] =>
  path
    .split('/')
    .filter((n) => n !== '' && n !== '.')
    .map((name) => ({ name, fromLink }));

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code;

/**
 * Walks the absolute, normalised `absolute` from `/`, resolving every symbolic link itself; with
 * `follow: false` the last component is not resolved (the action works on a link itself). With
 * `parents`, missing directories are created (mode `parents.mode`), each only after
 * `parents.mayCreate` accepted its path: confinement is checked before anything exists.
 *
 * @example
 * const w = await walk('/srv/pipit/notes.txt', { follow: true });
 * try { await readFile(w.at); } finally { await w.close(); }
 */
export async function walk(
  absolute: string,
  opts: {
    follow: boolean;
    parents?: { mode: number; mayCreate: (path: string) => void };
    /**
     * Where to start walking an absolute path (a directory holding it, by its path): `/` by
     * default. Only a directory whose path no caller can change (through a link) is safe here.
     */
    startFor?: (absolute: string) => string;
  },
): Promise<Walked> {
  const startFor = opts.startFor ?? (() => '/');
  // The walk starts at `startFor`'s directory (opened by its path) rather than at `/`: fewer
  // directories to open.
  const begin = async (path: string, fromLink: boolean): Promise<HeldDir[]> => {
    const start = startFor(path);
    const handle = await open(start, DIR_FLAGS);
    // The rest as written: a ".." after a link must apply to where the link leads, so nothing is
    // normalised here.
    queue.unshift(...steps(path.slice(start === '/' ? 0 : start.length), fromLink));
    return [{ handle, path: start }];
  };
  const queue: Step[] = [];
  const dirs: HeldDir[] = await begin(absolute, false);
  let links = 0;
  // Where the walk would have ended: for messages, and for checking confinement before "missing".
  const wouldBe = (at: string, name: string) => join(at, name, ...queue.map((s) => s.name));
  const closeAll = () =>
    Promise.all(dirs.splice(0).map((d) => d.handle.close().catch(() => undefined)));
  const fail = async (code: WalkError['code'], path: string, cause?: unknown): Promise<never> => {
    await closeAll();
    throw new WalkError(code, path, cause);
  };
  try {
    while (queue.length > 0) {
      const step = queue.shift()!;
      const top = dirs[dirs.length - 1]!;
      if (step.name === '..') {
        // The path so far has no links in it, so ".." is its parent, as the kernel would take it.
        if (dirs.length > 1) await dirs.pop()!.handle.close();
        else if (top.path !== '/') {
          const parent = {
            handle: await open(dirname(top.path), DIR_FLAGS),
            path: dirname(top.path),
          };
          await dirs.splice(0, 1, parent)[0]!.handle.close();
        }
        continue;
      }
      const last = queue.length === 0;
      const here = `${viaDir(top)}/${step.name}`;
      if (last && !opts.follow) return new Walked(dirs, step.name);
      if (!last) {
        try {
          dirs.push(await openDirIn(top, step.name));
          continue;
        } catch (err) {
          const code = codeOf(err);
          if (code === 'ENOENT') {
            if (step.fromLink) return await fail('DANGLING', wouldBe(top.path, step.name), err);
            if (!opts.parents) return await fail('ENOENT', wouldBe(top.path, step.name), err);
            opts.parents.mayCreate(join(top.path, step.name));
            await mkdir(here, opts.parents.mode).catch((e: unknown) => {
              if (codeOf(e) !== 'EEXIST') throw e;
            });
            queue.unshift(step);
            continue;
          }
          if (code !== 'ENOTDIR' && code !== 'ELOOP') throw err;
        }
      }
      // The last component (followed), or one that is not a directory: a link, or a file.
      const st = await lstat(here).catch((err: unknown) => {
        if (codeOf(err) === 'ENOENT') return undefined;
        throw err;
      });
      if (st?.isSymbolicLink()) {
        if (++links > MAX_LINKS) return await fail('ELOOP', join(top.path, step.name));
        const target = await readlink(here);
        if (target.startsWith('/')) {
          await closeAll();
          dirs.push(...(await begin(target, true)));
        } else queue.unshift(...steps(target, true));
        continue;
      }
      if (!last) {
        // Swapped for a directory since the open failed: try it again.
        if (st?.isDirectory()) {
          queue.unshift(step);
          continue;
        }
        return await fail(st ? 'ENOTDIR' : 'ENOENT', wouldBe(top.path, step.name));
      }
      if (!st && step.fromLink) return await fail('DANGLING', join(top.path, step.name));
      return new Walked(dirs, step.name);
    }
    return new Walked(dirs, '');
  } catch (err) {
    // A refusal from mayCreate, or an error such as EACCES: the caller words it.
    if (!(err instanceof WalkError)) await closeAll();
    throw err;
  }
}
