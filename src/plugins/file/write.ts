import { z } from 'zod';
import { atomicWrite } from './atomic.ts';
import { PipitError } from '../../core/errors.ts';
import { fsCall } from './errors.ts';
import { checkReplaceable } from './kinds.ts';
import { EncodingParam, ModeParam, PathParam, fileAction, parseMode } from './params.ts';
import type { FileState } from './state.ts';

const ContentParam = z
  .unknown()
  .describe(
    'what to write: text (or base64 with encoding "base64"); other values are written as JSON',
  );

function toBytes(action: string, content: unknown, encoding: string): Buffer {
  if (typeof content !== 'string') return Buffer.from(JSON.stringify(content) ?? 'null', 'utf8');
  if (encoding !== 'base64') return Buffer.from(content, 'utf8');
  const problem = base64Problem(content);
  if (problem) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: "content" is not valid base64 (${problem}): encode the bytes as base64, or use encoding "utf-8" for text`,
    );
  }
  return Buffer.from(content, 'base64');
}

// Buffer.from(s, 'base64') skips what it cannot decode, so a typo would be written as other bytes.
function base64Problem(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '');
  const body = compact.replace(/=+$/, '');
  const padding = compact.length - body.length;
  const bad = /[^A-Za-z0-9+/_-]/.exec(body);
  if (bad) return `${JSON.stringify(bad[0])} at position ${text.indexOf(bad[0])}`;
  if (/[+/]/.test(body) && /[_-]/.test(body))
    return 'it mixes the standard ("+/") and URL-safe ("-_") alphabets';
  if (body.length % 4 === 1) return `${body.length} characters cannot be whole bytes`;
  if (padding > 2 || (padding > 0 && compact.length % 4 !== 0))
    return 'the "=" padding does not fit the length';
  return undefined;
}

async function writeFile(
  state: FileState,
  action: string,
  args: {
    file: string;
    content: unknown;
    encoding: string;
    append: boolean;
    mode?: number | string;
    parents: boolean;
  },
): Promise<{ file: string; size: number }> {
  const data = toBytes(action, args.content, args.encoding);
  const mode = args.mode === undefined ? undefined : parseMode(args.mode);
  return state.guard.with(
    { action, param: 'file' },
    args.file,
    { intent: 'change', ...(args.parents ? { parents: 0o777 } : {}) },
    async (target) => {
      await checkReplaceable(action, 'file', target);
      await fsCall(action, target.path, () =>
        atomicWrite(target, data, {
          append: args.append,
          ...(mode === undefined ? {} : { mode }),
        }),
      );
      return { file: target.path, size: data.length };
    },
  );
}

const common = {
  file: PathParam('the file to write'),
  content: ContentParam,
  encoding: EncodingParam,
  mode: ModeParam(
    'permissions of the file, e.g. "0600" (default: kept, or 0666 less the umask for a new file)',
  ).optional(),
  parents: z.boolean().default(false).describe('create missing parent directories'),
};

export const write = fileAction({
  name: 'write',
  summary:
    'Writes a file atomically (a temporary file renamed over it): readers and crashes see the old content or the new, never a part.',
  description:
    'Replaces the content, or adds to it with append: true (the whole file is still replaced in one step). Returns {file, size}: the resolved path and the bytes written.',
  params: {
    ...common,
    append: z
      .boolean()
      .default(false)
      .describe('add to the end of the file instead of replacing it'),
  },
  run: (args, { state }) => writeFile(state, 'file.write', args),
});

export const append = fileAction({
  name: 'append',
  summary:
    'Adds content to the end of a file (created if missing), atomically, as file.write with append: true.',
  params: common,
  run: (args, { state }) => writeFile(state, 'file.append', { ...args, append: true }),
});
