import {
  chmod as chmodPath,
  link as hardLink,
  lstat,
  open,
  symlink,
  utimes,
} from 'node:fs/promises';
import { homedir } from 'node:os';
import { z } from 'zod';
import { fsCall } from './errors.ts';
import { ModeParam, PathParam, fileAction, parseMode } from './params.ts';

export const touch = fileAction({
  name: 'touch',
  summary: 'Creates an empty file, or sets the modification time of an existing one to now.',
  params: {
    file: PathParam('the file'),
    mode: ModeParam('permissions of a new file, e.g. "0644" (less the umask)').default('0644'),
  },
  run: async ({ file, mode }, { state }) => {
    const action = 'file.touch';
    const path = await state.guard.resolve({ action, param: 'file' }, file);
    // Opening an existing FIFO would wait for a writer forever: only a new file is opened ('wx'
    // never opens one that appeared meanwhile), an existing path just gets new times.
    const existing = await lstat(path).catch(() => undefined);
    if (!existing) {
      const handle = await fsCall(action, path, () =>
        open(path, 'wx', parseMode(mode)).catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'EEXIST') return undefined;
          throw err;
        }),
      );
      await handle?.close();
    }
    const now = new Date();
    await fsCall(action, path, () => utimes(path, now, now));
    return { file: path };
  },
});

export const chmod = fileAction({
  name: 'chmod',
  summary: 'Changes the permissions of a file or directory.',
  params: {
    file: PathParam('the file or directory'),
    mode: ModeParam('the new permissions, e.g. "0640"'),
  },
  run: async ({ file, mode }, { state }) => {
    const action = 'file.chmod';
    const path = await state.guard.resolve({ action, param: 'file' }, file);
    await fsCall(action, path, () => chmodPath(path, parseMode(mode)));
    return { file: path };
  },
});

export const home = fileAction({
  name: 'home',
  summary: "The service user's home directory.",
  params: {},
  run: () => homedir(),
});

export const link = fileAction({
  name: 'link',
  summary: 'Creates a link at "target" pointing to "file": symbolic by default, or a hard link.',
  description:
    'Both paths must be inside file.roots; a symbolic link records the resolved, absolute path of "file".',
  params: {
    file: PathParam('the existing file the link points to'),
    target: PathParam('where to create the link'),
    symbolic: z.boolean().default(true).describe('a symbolic link (false: a hard link)'),
  },
  run: async ({ file, target, symbolic }, { state }) => {
    const action = 'file.link';
    const to = await state.guard.resolve({ action, param: 'file' }, file);
    const at = await state.guard.resolve({ action, param: 'target' }, target, { follow: false });
    await fsCall(action, at, () => (symbolic ? symlink(to, at) : hardLink(to, at)));
    return { file: to, target: at };
  },
});
