import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { PipitError } from '../api/index.ts';
import type { Upload } from './client.ts';

/** Where the file of a send_photo/send_document comes from, as Platypush's arguments give it. */
export interface FileArgs {
  file_id?: string | undefined;
  url?: string | undefined;
  path?: string | undefined;
}

/** What goes in the request: a file_id or URL as text, or a local file as an upload. */
export type FileParam = { value: string } | { upload: Upload };

// In the Bot API's own argument (photo, document): a URL, a local path, else a file_id.
function fromShorthand(value: string): FileArgs {
  if (/^https?:\/\//i.test(value)) return { url: value };
  if (/^(\/|~\/|\.\.?\/|file:\/\/)/.test(value)) return { path: value.replace(/^file:\/\//, '') };
  return { file_id: value };
}

/**
 * The file an action sends: exactly one of `<field>` (Telegram's argument: an http(s) URL, a local
 * path starting with /, ~/, ./ or ../, else a file_id), `file_id`, `url` or `path` (Platypush's).
 * A local file is uploaded with multipart/form-data under `filename` (default its own name).
 *
 * @example
 * await fileParam('chat.telegram.send_photo', 'photo', { path: '~/cam.jpg' });
 */
export async function fileParam(
  action: string,
  field: string,
  args: FileArgs & Record<string, unknown>,
  filename?: string,
): Promise<FileParam> {
  const given = [field, 'file_id', 'url', 'path'].filter(
    (k) => typeof args[k] === 'string' && args[k] !== '',
  );
  if (given.length !== 1)
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: give exactly one of ${field}, file_id, url or path${given.length ? ` (got ${given.join(', ')})` : ''}`,
    );
  const source: FileArgs =
    given[0] === field ? fromShorthand(args[field] as string) : { [given[0]!]: args[given[0]!] };
  if (source.file_id) return { value: source.file_id };
  if (source.url) {
    if (!/^https?:\/\//i.test(source.url))
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${action}: url "${source.url}" is not an http(s) URL`,
      );
    return { value: source.url };
  }
  const path = resolve(source.path!.replace(/^~(?=\/|$)/, homedir()));
  try {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'not a file' });
    return { upload: { blob: await openAsBlob(path), filename: filename ?? basename(path) } };
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).message;
    throw new PipitError('INVALID_ARGUMENTS', `${action}: cannot read path "${path}" (${code})`, {
      cause: err,
    });
  }
}
