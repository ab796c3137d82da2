import { lstat, rm, rmdir as removeDir, unlink as unlinkPath } from 'node:fs/promises';
import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { fsCall } from './errors.ts';
import { PathParam, fileAction } from './params.ts';
import type { FileState } from './state.ts';

// The thing itself, not what a symbolic link points to; a root, or a directory holding one, is
// never removed.
async function target(state: FileState, action: string, param: string, path: string) {
  const resolved = await state.guard.resolve({ action, param }, path, { follow: false });
  state.guard.refuseRoot(action, `"${param}"`, resolved, 'removed');
  return { resolved, st: await fsCall(action, resolved, () => lstat(resolved)) };
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
    const { resolved, st } = await target(state, action, 'file', file);
    if (st.isDirectory() && !recursive) {
      throw new PipitError(
        'ACTION_FAILED',
        `${action}: ${resolved} is a directory: pass recursive: true to delete it with its content (file.rmdir removes an empty one)`,
        { details: { path: resolved } },
      );
    }
    await fsCall(action, resolved, () => rm(resolved, { recursive }));
    return { file: resolved };
  },
});

export const unlink = fileAction({
  name: 'unlink',
  summary: "Removes a file or a symbolic link, not a directory (Platypush's file.unlink).",
  params: { file: PathParam('the file or link to remove') },
  run: async ({ file }, { state }) => {
    const action = 'file.unlink';
    const { resolved } = await target(state, action, 'file', file);
    await fsCall(action, resolved, () => unlinkPath(resolved));
    return { file: resolved };
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
    const { resolved, st } = await target(state, action, 'directory', directory);
    if (!st.isDirectory()) {
      throw new PipitError(
        'ACTION_FAILED',
        `${action}: ${resolved} is not a directory (file.delete removes files)`,
        {
          details: { path: resolved },
        },
      );
    }
    await fsCall(action, resolved, () =>
      recursive ? rm(resolved, { recursive: true }) : removeDir(resolved),
    );
    return { directory: resolved };
  },
});
