import { cp, lstat, rename as renamePath, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { openRegular, replaceAtomically, withPathLock } from './atomic.ts';
import { copyDirIn } from './copy-tree.ts';
import { fsCall, fsError } from './errors.ts';
import { checkReplaceable, notRegular } from './kinds.ts';
import { PathParam, fileAction } from './params.ts';
import type { FileState } from './state.ts';
import type { Walked } from './walk.ts';

const isDir = (at: string) =>
  stat(at).then(
    (s) => s.isDirectory(),
    () => false,
  );
const exists = (at: string) =>
  lstat(at).then(
    () => true,
    () => false,
  );

// A target that is an existing directory receives the source inside it, as cp and mv do. The
// result is walked (held) and must be closed.
async function intoDirectory(
  state: FileState,
  action: string,
  target: string,
  sourceName: string,
  follow: boolean,
): Promise<Walked> {
  const use = { action, param: 'target' };
  const walked = await state.guard.open(use, target, { follow, intent: 'change' });
  if (!(await isDir(walked.at))) return walked;
  const inner = join(walked.path, sourceName);
  await walked.close();
  return state.guard.open(use, inner, { follow, intent: 'change' });
}

function refuseExisting(action: string, path: string): never {
  throw new PipitError(
    'ACTION_FAILED',
    `${action}: ${path} already exists (pass overwrite: true to replace it)`,
    {
      details: { path },
    },
  );
}

export const copy = fileAction({
  name: 'copy',
  summary:
    'Copies a file (atomically: the target appears complete or not at all), or a directory with recursive: true.',
  description:
    "A target that is an existing directory receives the copy inside it. A file copy gets the source's permissions, or keeps the target's when it replaces one. Returns {source, target} resolved.",
  params: {
    source: PathParam('the file or directory to copy'),
    target: PathParam('where to copy it: a new path, or an existing directory'),
    overwrite: z.boolean().default(true).describe('replace a target that exists'),
    recursive: z.boolean().default(false).describe('copy a directory and everything in it'),
  },
  run: async ({ source, target, overwrite, recursive }, { state }) => {
    const action = 'file.copy';
    return state.guard.with(
      { action, param: 'source' },
      source,
      { intent: 'read' },
      async (src) => {
        const srcStat = await fsCall(action, src.path, () => lstat(src.at));
        // Reading a FIFO would wait for a writer forever, and a device may never end.
        if (!srcStat.isFile() && !srcStat.isDirectory()) {
          throw notRegular(
            action,
            'source',
            src.path,
            srcStat,
            'copy a regular file, or a directory with recursive: true',
          );
        }
        if (srcStat.isDirectory() && !recursive) {
          throw new PipitError(
            'ACTION_FAILED',
            `${action}: ${src.path} is a directory: pass recursive: true to copy it with its content`,
          );
        }
        const dst = await intoDirectory(state, action, target, basename(src.path), true);
        try {
          if (!overwrite && (await exists(dst.at))) refuseExisting(action, dst.path);
          if (srcStat.isDirectory()) await copyDir(action, src, dst, srcStat.mode & 0o1777);
          else await copyFile(action, src, dst);
          return { source: src.path, target: dst.path };
        } finally {
          await dst.close();
        }
      },
    );
  },
});

// A tree is copied entry by entry inside held directories (copy-tree.ts), and never merged into
// an existing one: the target must be new.
async function copyDir(action: string, src: Walked, dst: Walked, mode: number) {
  if (await exists(dst.at)) {
    throw new PipitError(
      'ACTION_FAILED',
      `${action}: ${dst.path} already exists, and a directory is copied only to a new path: delete it first (file.rmdir with recursive: true), or choose another target`,
      { details: { path: dst.path } },
    );
  }
  await fsCall(action, dst.path, () => copyDirIn(src.parent, dst.parent, src.name, mode, dst.name));
}

async function copyFile(action: string, src: Walked, dst: Walked) {
  await checkReplaceable(action, 'target', dst);
  const from = await fsCall(action, src.path, () => openRegular(src.at));
  if (!from.handle) {
    throw notRegular(action, 'source', src.path, from.st, 'copy a regular file');
  }
  const startFrom = { handle: from.handle, st: from.st };
  try {
    await fsCall(action, dst.path, () =>
      withPathLock(dst.path, () => replaceAtomically(dst, async () => undefined, { startFrom })),
    );
  } finally {
    await from.handle.close();
  }
}

// rename(2) reports these about the target, not the source.
const TARGET_ERRORS: Record<string, string> = {
  ENOTEMPTY: 'is a directory that is not empty',
  EEXIST: 'is a directory that is not empty',
  EISDIR: 'is a directory, and a file cannot replace it',
};

async function movePath(action: string, src: Walked, dst: Walked): Promise<void> {
  try {
    // Both names are taken inside their held directories: rename(2) follows no link in them.
    await renamePath(src.at, dst.at);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const what = TARGET_ERRORS[code];
    if (what !== undefined) {
      throw new PipitError(
        'ACTION_FAILED',
        `${action}: cannot move ${src.path} to ${dst.path}: the target ${dst.path} ${what}: delete or move it first, or choose another target`,
        { cause: err, details: { path: dst.path, source: src.path, errno: code } },
      );
    }
    if (code !== 'EXDEV') throw fsError(action, src.path, err);
    // Another file system: copy, then remove the original. The two ends are held, but cp works
    // by path below them: such a move of a tree is not proof against links swapped in meanwhile.
    // A caller confined to roots on one file system never gets here.
    await fsCall(action, dst.path, () =>
      cp(src.at, dst.at, { recursive: true, force: true, verbatimSymlinks: true }),
    );
    await fsCall(action, src.path, () => rm(src.at, { recursive: true }));
  }
}

export const move = fileAction({
  name: 'move',
  summary:
    'Moves (renames) a file or a directory; a target that is an existing directory receives it inside.',
  description:
    'A symbolic link is moved itself, not what it points to. Within one file system the move is a single atomic rename. Returns {source, target} resolved.',
  params: {
    source: PathParam('the file or directory to move'),
    target: PathParam('its new path, or an existing directory to move it into'),
    overwrite: z.boolean().default(true).describe('replace a target that exists'),
  },
  run: async ({ source, target, overwrite }, { state }) => {
    const action = 'file.move';
    const use = { action, param: 'source' };
    const opts = { follow: false, intent: 'change' } as const;
    return state.guard.with(use, source, opts, async (src) => {
      state.guard.refuseRoot(action, '"source"', src.path, 'moved');
      await fsCall(action, src.path, () => lstat(src.at));
      const dst = await intoDirectory(state, action, target, src.name, false);
      try {
        if (!overwrite && (await exists(dst.at))) refuseExisting(action, dst.path);
        await movePath(action, src, dst);
        return { source: src.path, target: dst.path };
      } finally {
        await dst.close();
      }
    });
  },
});

export const rename = fileAction({
  name: 'rename',
  summary:
    "Renames a file or directory to a new path (Platypush's file.rename): the new path is replaced if it exists.",
  params: {
    file: PathParam('the file or directory to rename'),
    name: PathParam('its new path'),
  },
  run: async ({ file, name }, { state }) => {
    const action = 'file.rename';
    const opts = { follow: false, intent: 'change' } as const;
    return state.guard.with({ action, param: 'file' }, file, opts, async (src) => {
      state.guard.refuseRoot(action, '"file"', src.path, 'moved');
      return state.guard.with({ action, param: 'name' }, name, opts, async (dst) => {
        // rename(2) replaces an empty directory, so a root could be replaced as well as moved.
        state.guard.refuseRoot(action, '"name"', dst.path, 'moved');
        await fsCall(action, src.path, () => lstat(src.at));
        await movePath(action, src, dst);
        return { file: src.path, name: dst.path };
      });
    });
  },
});
