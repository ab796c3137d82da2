import { lstat, rm, rmdir as removeDir, unlink as unlinkPath } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { fsCall } from './errors.ts';
import { PathParam, fileAction } from './params.ts';
import type { FileState } from './state.ts';
import type { Walked } from './walk.ts';

// The thing itself, not what a symbolic link points to; a root, or a directory holding one (or
// Pipit's own files), is never removed. `fn` works on the held entry.
async function onTarget<T>(
  state: FileState,
  action: string,
  param: string,
  path: string,
  fn: (w: Walked, st: Stats) => Promise<T>,
): Promise<T> {
  const opts = { follow: false, intent: 'change' } as const;
  return state.guard.with({ action, param }, path, opts, async (w) => {
    state.guard.refuseRoot(action, `"${param}"`, w.path, 'removed');
    return fn(w, await fsCall(action, w.path, () => lstat(w.at)));
  });
}

export const del = fileAction({
  name: 'delete',
  summary:
    'Deletes a file or a symbolic link (the link, not its target); a directory with recursive: true.',
  params: {
    file: PathParam('the file, link or directory to delete'),
    recursive: z.boolean().default(false).describe('delete a directory and everything in it'),
  },
  run: async ({ file, recursive }, { state }) => {
    const action = 'file.delete';
    return onTarget(state, action, 'file', file, async (w, st) => {
      if (st.isDirectory() && !recursive) {
        throw new PipitError(
          'ACTION_FAILED',
          `${action}: ${w.path} is a directory: pass recursive: true to delete it with its content (file.rmdir removes an empty one)`,
          { details: { path: w.path } },
        );
      }
      await fsCall(action, w.path, () => rm(w.at, { recursive }));
      return { file: w.path };
    });
  },
});

export const unlink = fileAction({
  name: 'unlink',
  summary: "Removes a file or a symbolic link, not a directory (Platypush's file.unlink).",
  params: { file: PathParam('the file or link to remove') },
  run: async ({ file }, { state }) => {
    const action = 'file.unlink';
    return onTarget(state, action, 'file', file, async (w) => {
      await fsCall(action, w.path, () => unlinkPath(w.at));
      return { file: w.path };
    });
  },
});

export const rmdir = fileAction({
  name: 'rmdir',
  summary: 'Removes a directory: an empty one, or with recursive: true everything in it.',
  params: {
    directory: PathParam('the directory to remove'),
    recursive: z.boolean().default(false).describe('remove its content too'),
  },
  run: async ({ directory, recursive }, { state }) => {
    const action = 'file.rmdir';
    return onTarget(state, action, 'directory', directory, async (w, st) => {
      if (!st.isDirectory()) {
        throw new PipitError(
          'ACTION_FAILED',
          `${action}: ${w.path} is not a directory (file.delete removes files)`,
          { details: { path: w.path } },
        );
      }
      await fsCall(action, w.path, () =>
        recursive ? rm(w.at, { recursive: true }) : removeDir(w.at),
      );
      return { directory: w.path };
    });
  },
});
