import { lstat, readlink, stat as statPath } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
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
    const path = await state.guard.resolve({ action, param: 'file' }, file, { follow });
    const st = await fsCall(action, path, () => (follow ? statPath(path) : lstat(path)));
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
      ...(type === 'symlink' ? { target: await readlink(path) } : {}),
    };
  },
});

export const exists = fileAction({
  name: 'exists',
  summary: 'True when the path exists (a path outside file.roots is an error, not false).',
  params: { file: PathParam('the path to test') },
  run: async ({ file }, { state }) => {
    const path = await state.guard.resolve({ action: 'file.exists', param: 'file' }, file, {
      follow: false,
    });
    return lstat(path).then(
      () => true,
      () => false,
    );
  },
});

export const getsize = fileAction({
  name: 'getsize',
  summary: "The size of a file in bytes (Platypush's file.getsize).",
  params: { file: PathParam('the file') },
  run: async ({ file }, { state }) => {
    const action = 'file.getsize';
    const path = await state.guard.resolve({ action, param: 'file' }, file);
    return (await fsCall(action, path, () => statPath(path))).size;
  },
});
