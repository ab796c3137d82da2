import { lstat, mkdir as makeDir } from 'node:fs/promises';
import { z } from 'zod';
import { PipitError } from '../../core/errors.ts';
import { fsCall } from './errors.ts';
import { ModeParam, PathParam, fileAction, parseMode } from './params.ts';

export const mkdir = fileAction({
  name: 'mkdir',
  summary: 'Creates a directory, with its missing parents by default (as mkdir -p).',
  params: {
    directory: PathParam('the directory to create'),
    exist_ok: z.boolean().default(true).describe('succeed when the directory already exists'),
    parents: z.boolean().default(true).describe('create missing parent directories too'),
    mode: ModeParam('permissions, e.g. "0755" (less the umask)').default('0755'),
  },
  run: async ({ directory, exist_ok, parents, mode }, { state }) => {
    const action = 'file.mkdir';
    const bits = parseMode(mode);
    // Missing parents are made during the walk, each after its path was checked: a link swapped
    // onto the path meanwhile cannot put them elsewhere.
    const opts = { intent: 'change', ...(parents ? { parents: bits } : {}) } as const;
    return state.guard.with({ action, param: 'directory' }, directory, opts, async (w) => {
      const path = w.path;
      const existing = await lstat(w.at).catch(() => undefined);
      if (existing) {
        if (!existing.isDirectory())
          throw new PipitError(
            'ACTION_FAILED',
            `${action}: ${path} already exists and is not a directory`,
            { details: { path } },
          );
        if (!exist_ok)
          throw new PipitError(
            'ACTION_FAILED',
            `${action}: ${path} already exists (pass exist_ok: true to accept that)`,
            { details: { path } },
          );
        return { directory: path, created: false };
      }
      await fsCall(action, path, () => makeDir(w.at, bits));
      return { directory: path, created: true };
    });
  },
});
