import { lstat, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { fsCall } from './errors.ts';
import { PathParam, fileAction, octal } from './params.ts';

export const stat = fileAction({
  name: 'stat',
  summary:
    'Facts about a file: type, size, mode, owner, times (UNIX seconds) and, for a symbolic link, its target.',
  params: {
    file: PathParam('the file, directory or link'),
    follow: z
      .boolean()
      .default(true)
      .describe('describe what a symbolic link points to (false: the link itself)'),
  },
  run: async ({ file, follow }, { state }) => {
    const action = 'file.stat';
    const opts = { follow, intent: 'look' } as const;
    return state.guard.with({ action, param: 'file' }, file, opts, async (w) => {
      const path = w.path;
      // lstat also when following: the walk resolved the links, and one that appeared since is
      // described, not followed.
      const st = await fsCall(action, path, () => lstat(w.at));
      const type = st.isSymbolicLink()
        ? 'symlink'
        : st.isDirectory()
          ? 'directory'
          : st.isFile()
            ? 'file'
            : 'other';
      return {
        path,
        name: basename(path),
        type,
        size: st.size,
        mode: octal(st.mode),
        uid: st.uid,
        gid: st.gid,
        modified: st.mtimeMs / 1000,
        accessed: st.atimeMs / 1000,
        changed: st.ctimeMs / 1000,
        created: st.birthtimeMs / 1000,
        ...(type === 'symlink' ? { target: await readlink(w.at) } : {}),
      };
    });
  },
});

export const exists = fileAction({
  name: 'exists',
  summary: 'True when the path exists (a path outside file.roots is an error, not false).',
  params: { file: PathParam('the path to test') },
  run: async ({ file }, { state }) => {
    const use = { action: 'file.exists', param: 'file' };
    const opts = { follow: false, intent: 'look' } as const;
    return state.guard
      .with(use, file, opts, (w) =>
        lstat(w.at).then(
          () => true,
          () => false,
        ),
      )
      .catch((err: unknown) => {
        // A missing directory on the way: the path does not exist (outside the roots still throws).
        const errno = err instanceof PipitError ? err.details.errno : undefined;
        if (errno === 'ENOENT' || errno === 'ENOTDIR') return false;
        throw err;
      });
  },
});

export const getsize = fileAction({
  name: 'getsize',
  summary: "The size of a file in bytes (Platypush's file.getsize).",
  params: { file: PathParam('the file') },
  run: async ({ file }, { state }) => {
    const action = 'file.getsize';
    return state.guard.with({ action, param: 'file' }, file, { intent: 'look' }, async (w) => {
      return (await fsCall(action, w.path, () => lstat(w.at))).size;
    });
  },
});
