import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, copyFile, open, rename, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What a temporary file's name ends with: `.<name>.<pid>.<random>.pipit-tmp`, hidden beside the target. */
export const TEMP_SUFFIX = '.pipit-tmp';

const locks = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` once the writes to `path` started before it (in this process) have finished, so that two
 * appends to one file cannot both start from the same old content.
 *
 * @example
 * await withPathLock('/srv/log.txt', () => atomicWrite('/srv/log.txt', 'x', { append: true }));
 */
export async function withPathLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(path) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  locks.set(path, settled);
  try {
    return await next;
  } finally {
    if (locks.get(path) === settled) locks.delete(path);
  }
}

/**
 * A fresh temporary path beside `target`: same directory (so the final rename is atomic), hidden,
 * and named after the writing process.
 *
 * @example
 * tempPathFor('/srv/a.txt'); // '/srv/.a.txt.4242.9f1c2e3d.pipit-tmp'
 */
export function tempPathFor(target: string): string {
  return join(
    dirname(target),
    `.${shortName(basename(target))}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`,
  );
}

// A name may have 255 bytes and the temporary name adds about 30 to it: a long but valid target
// name would make the temporary one too long. Cut whole characters, never a UTF-8 sequence.
const TEMP_NAME_BYTES = 100;
function shortName(name: string): string {
  if (Buffer.byteLength(name) <= TEMP_NAME_BYTES) return name;
  let short = '';
  for (const char of name) {
    if (Buffer.byteLength(short + char) > TEMP_NAME_BYTES) break;
    short += char;
  }
  return short;
}

// fsync of the directory makes the rename itself durable; some file systems refuse it, harmlessly.
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

/**
 * Fills a temporary file beside `target` with `fill`, flushes it to disk, then renames it over
 * `target` in one step: readers (and a crash or `kill -9` at any moment) see the old content or the
 * new, never a part. An existing file's permissions are kept unless `mode` is given; the temporary
 * file is removed if anything fails.
 *
 * @example
 * await replaceAtomically('/srv/a.txt', async (h) => { await h.writeFile('new content'); });
 */
export async function replaceAtomically(
  target: string,
  fill: (handle: FileHandle) => Promise<void>,
  opts: { mode?: number; startFrom?: string } = {},
): Promise<void> {
  const existing = await stat(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (existing?.isDirectory()) {
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, '${target}'`), {
      code: 'EISDIR',
    });
  }
  const temp = tempPathFor(target);
  try {
    let copiedMode: number | undefined;
    if (opts.startFrom) {
      await copyFile(opts.startFrom, temp, constants.COPYFILE_EXCL);
      // copyFile gives the copy the source's mode; a read-only one could not be opened to fill it.
      copiedMode = (await stat(temp)).mode & 0o7777;
      await chmod(temp, copiedMode | 0o600);
    }
    const handle = await open(
      temp,
      opts.startFrom ? 'a' : 'wx',
      opts.mode ?? (existing ? existing.mode & 0o7777 : 0o666),
    );
    try {
      await fill(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; an explicit or inherited mode is set as it is.
    const mode = opts.mode ?? (existing ? existing.mode & 0o7777 : copiedMode);
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await syncDir(dirname(target));
}

/**
 * Writes `data` to `target` atomically (see {@link replaceAtomically}); with `append`, the new file is
 * the old content followed by `data`, still replaced in one step.
 *
 * @example
 * await atomicWrite('/srv/notes.txt', 'hello\n', { append: true });
 */
export async function atomicWrite(
  target: string,
  data: string | Buffer,
  opts: { append?: boolean; mode?: number } = {},
): Promise<void> {
  await withPathLock(target, async () => {
    const startFrom =
      opts.append &&
      (await stat(target)
        .then((s) => s.isFile())
        .catch(() => false))
        ? target
        : undefined;
    await replaceAtomically(
      target,
      async (handle) => {
        await handle.writeFile(data);
      },
      {
        ...(opts.mode === undefined ? {} : { mode: opts.mode }),
        ...(startFrom ? { startFrom } : {}),
      },
    );
  });
}
