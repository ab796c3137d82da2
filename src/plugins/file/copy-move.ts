import { cp, lstat, rename as renamePath, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { replaceAtomically, withPathLock } from './atomic.ts';
import { fsCall, fsError } from './errors.ts';
import { checkReplaceable, notRegular } from './kinds.ts';
import { PathParam, fileAction } from './params.ts';
import type { FileState } from './state.ts';

const isDir = (path: string) =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

// A target that is an existing directory receives the source inside it, as cp and mv do.
async function intoDirectory(
  state: FileState,
  action: string,
  target: string,
  source: string,
  follow: boolean,
): Promise<string> {
  const resolved = await state.guard.resolve({ action, param: 'target' }, target, { follow });
  if (!(await isDir(resolved))) return resolved;
  return state.guard.resolve({ action, param: 'target' }, join(resolved, basename(source)), {
    follow,
  });
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
    const src = await state.guard.resolve({ action, param: 'source' }, source);
    const srcStat = await fsCall(action, src, () => stat(src));
    // Reading a FIFO would wait for a writer forever, and a device may never end.
    if (!srcStat.isFile() && !srcStat.isDirectory()) {
      throw notRegular(
        action,
        'source',
        src,
        srcStat,
        'copy a regular file, or a directory with recursive: true',
      );
    }
    const dst = await intoDirectory(state, action, target, src, true);
    if (!overwrite && (await exists(dst))) refuseExisting(action, dst);
    if (srcStat.isDirectory()) {
      if (!recursive) {
        throw new PipitError(
          'ACTION_FAILED',
          `${action}: ${src} is a directory: pass recursive: true to copy it with its content`,
        );
      }
      // Symbolic links are copied as links; reading through one later is checked against the roots.
      await fsCall(action, dst, () =>
        cp(src, dst, {
          recursive: true,
          force: overwrite,
          errorOnExist: !overwrite,
          verbatimSymlinks: true,
        }),
      );
    } else {
      await checkReplaceable(action, 'target', dst);
      await fsCall(action, dst, () =>
        withPathLock(dst, () => replaceAtomically(dst, async () => undefined, { startFrom: src })),
      );
    }
    return { source: src, target: dst };
  },
});

// rename(2) reports these about the target, not the source.
const TARGET_ERRORS: Record<string, string> = {
  ENOTEMPTY: 'is a directory that is not empty',
  EEXIST: 'is a directory that is not empty',
  EISDIR: 'is a directory, and a file cannot replace it',
};

async function movePath(action: string, src: string, dst: string): Promise<void> {
  try {
    await renamePath(src, dst);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const what = TARGET_ERRORS[code];
    if (what !== undefined) {
      throw new PipitError(
        'ACTION_FAILED',
        `${action}: cannot move ${src} to ${dst}: the target ${dst} ${what}: delete or move it first, or choose another target`,
        { cause: err, details: { path: dst, source: src, errno: code } },
      );
    }
    if (code !== 'EXDEV') throw fsError(action, src, err);
    // Another file system: copy, then remove the original.
    await fsCall(action, dst, () =>
      cp(src, dst, { recursive: true, force: true, verbatimSymlinks: true }),
    );
    await fsCall(action, src, () => rm(src, { recursive: true }));
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
    const src = await state.guard.resolve({ action, param: 'source' }, source, { follow: false });
    state.guard.refuseRoot(action, '"source"', src, 'moved');
    await fsCall(action, src, () => lstat(src));
    const dst = await intoDirectory(state, action, target, src, false);
    if (!overwrite && (await exists(dst))) refuseExisting(action, dst);
    await movePath(action, src, dst);
    return { source: src, target: dst };
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
    const src = await state.guard.resolve({ action, param: 'file' }, file, { follow: false });
    state.guard.refuseRoot(action, '"file"', src, 'moved');
    const dst = await state.guard.resolve({ action, param: 'name' }, name, { follow: false });
    // rename(2) replaces an empty directory, so a root could be replaced as well as moved.
    state.guard.refuseRoot(action, '"name"', dst, 'moved');
    await fsCall(action, src, () => lstat(src));
    await movePath(action, src, dst);
    return { file: src, name: dst };
  },
});
