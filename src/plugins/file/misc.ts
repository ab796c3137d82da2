import { link as hardLink, lstat, lutimes, open, symlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { z } from 'zod';
import { fsCall } from './errors.ts';
import { ModeParam, PathParam, fileAction, parseMode } from './params.ts';
import { chmodNoFollow } from './walk.ts';

export const touch = fileAction({
  name: 'touch',
  summary: 'Creates an empty file, or sets the modification time of an existing one to now.',
  params: {
    file: PathParam('the file'),
    mode: ModeParam('permissions of a new file, e.g. "0644" (less the umask)').default('0644'),
  },
  run: async ({ file, mode }, { state }) => {
    const action = 'file.touch';
    return state.guard.with({ action, param: 'file' }, file, { intent: 'change' }, async (w) => {
      // Opening an existing FIFO would wait for a writer forever: only a new file is opened ('wx'
      // never opens one that appeared meanwhile, nor follows a link), an existing path just gets
      // new times.
      const existing = await lstat(w.at).catch(() => undefined);
      if (!existing) {
        const handle = await fsCall(action, w.path, () =>
          open(w.at, 'wx', parseMode(mode)).catch((err: NodeJS.ErrnoException) => {
            if (err.code === 'EEXIST') return undefined;
            throw err;
          }),
        );
        await handle?.close();
      }
      const now = new Date();
      // lutimes: the entry itself, never what a link swapped in meanwhile points to.
      await fsCall(action, w.path, () => lutimes(w.at, now, now));
      return { file: w.path };
    });
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
    return state.guard.with({ action, param: 'file' }, file, { intent: 'change' }, async (w) => {
      await fsCall(action, w.path, () => chmodNoFollow(w.at, parseMode(mode)));
      return { file: w.path };
    });
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
    // A hard link to a file would let it be read under another name: "file" is read access.
    return state.guard.with({ action, param: 'file' }, file, { intent: 'read' }, async (to) => {
      const opts = { follow: false, intent: 'change' } as const;
      return state.guard.with({ action, param: 'target' }, target, opts, async (at) => {
        // link(2) does not follow a link at "to" either: the names are used in held directories.
        await fsCall(action, at.path, () =>
          symbolic ? symlink(to.path, at.at) : hardLink(to.at, at.at),
        );
        return { file: to.path, target: at.path };
      });
    });
  },
});
