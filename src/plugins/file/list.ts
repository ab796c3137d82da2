import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, join, matchesGlob, relative, sep } from 'node:path';
import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { fsCall } from './errors.ts';
import { PathParam, fileAction } from './params.ts';
import { openDirIn, viaDir } from './walk.ts';
import type { HeldDir } from './walk.ts';

/** One entry of `file.list`. */
export interface ListEntry {
  type: 'file' | 'directory' | 'symlink' | 'other';
  path: string;
  name: string;
  size: number;
  /** Last modification, UNIX seconds. */
  modified: number;
}

function typeOf(st: Stats | Dirent): ListEntry['type'] {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return 'directory';
  return st.isFile() ? 'file' : 'other';
}

function entry(path: string, st: Stats): ListEntry {
  return {
    type: typeOf(st),
    path,
    name: basename(path),
    size: st.size,
    modified: st.mtimeMs / 1000,
  };
}

export const list = fileAction({
  name: 'list',
  summary:
    'Lists a directory: [{type, path, name, size, modified}], directories first, then by name; a file lists as itself.',
  description:
    'type is "file", "directory", "symlink" (not followed) or "other". glob filters by path relative to the directory: "*.txt", "**/*.log" (which also searches subdirectories), "{a,b}*"; "*" skips names starting with a dot. Symbolic links to directories are not descended into.',
  params: {
    path: PathParam('the directory to list (default: the first of file.roots, else /)').optional(),
    glob: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe(
        'only entries whose path relative to the directory matches, e.g. "*.txt" or "**/*.log"',
      ),
    recursive: z.boolean().default(false).describe('list subdirectories too'),
  },
  run: async ({ path, glob, recursive }, { state }) => {
    const action = 'file.list';
    const use = { action, param: 'path' };
    const start = path ?? state.guard.roots?.[0] ?? '/';
    return state.guard.with(use, start, { intent: 'look' }, async (w) => {
      const dir = w.path;
      const top = await fsCall(action, dir, () => lstat(w.at));
      if (!top.isDirectory()) return [entry(dir, top)];
      const held =
        w.name === '' ? undefined : await fsCall(action, dir, () => openDirIn(w.parent, w.name));
      try {
        return await listDir(action, held ?? w.parent, {
          limit: state.config.max_list_entries,
          glob,
          deep: recursive || (glob !== undefined && (glob.includes('/') || glob.includes('**'))),
        });
      } finally {
        await held?.handle.close();
      }
    });
  },
});

// Each directory is opened inside its parent without following links (see walk.ts), and read
// through its descriptor: a link swapped in for a subdirectory meanwhile is not followed.
async function listDir(
  action: string,
  top: HeldDir,
  opts: { limit: number; glob: string | undefined; deep: boolean },
): Promise<ListEntry[]> {
  const { limit, glob, deep } = opts;
  const dir = top.path;
  const found: ListEntry[] = [];
  let visited = 0;
  const tooMany = (what: string): never => {
    throw new PipitError(
      'ACTION_FAILED',
      `${action}: ${dir} holds more than ${what} (file.max_list_entries): narrow it with "glob" or a deeper "path", or raise file.max_list_entries`,
      { details: { path: dir, limit } },
    );
  };
  const walkDir = async (at: HeldDir): Promise<void> => {
    const children = await fsCall(action, at.path, () =>
      readdir(viaDir(at), { withFileTypes: true }),
    );
    for (const child of children) {
      if (++visited > limit * 10) tooMany(`${limit * 10} entries to look through`);
      const full = join(at.path, child.name);
      const rel = relative(dir, full).split(sep).join('/');
      if (glob === undefined || matchesGlob(rel, glob)) {
        // Only a match beyond the limit is too many: entries that do not match may follow.
        if (found.length >= limit) tooMany(`${limit} matching entries`);
        const st = await lstat(`${viaDir(at)}/${child.name}`).catch(() => undefined);
        if (st) found.push(entry(full, st));
      }
      if (deep && child.isDirectory()) {
        const sub = await openDirIn(at, child.name).catch(() => undefined);
        if (!sub) continue;
        try {
          await walkDir(sub);
        } finally {
          await sub.handle.close();
        }
      }
    }
  };
  await walkDir(top);
  const rank = (e: ListEntry) => (e.type === 'directory' ? 0 : 1);
  return found.sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
}
