import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Walked } from './walk.ts';

/** What a temporary file's name ends with: `.<name>.<pid>.<random>.pipit-tmp`, hidden beside the target. */
export const TEMP_SUFFIX = '.pipit-tmp';

const locks = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` once the writes to `path` started before it (in this process) have finished, so that two
 * appends to one file cannot both start from the same old content.
 *
 * @example
 * await withPathLock(walked.path, () => atomicWrite(walked, 'x', { append: true }));
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
 * A fresh temporary name for a file beside `name`: hidden, and named after the writing process.
 *
 * @example
 * tempNameFor('a.txt'); // '.a.txt.4242.9f1c2e3d.pipit-tmp'
 */
export function tempNameFor(name: string): string {
  return `.${shortName(name)}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`;
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

/** Flags for reading a file found by a walk: never through a link, and never waiting on a FIFO. */
export const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens `at` (a walked path) for reading as a regular file; `undefined` when it is something else,
 * whose stat is then returned for the caller's message.
 *
 * @example
 * const { handle, st } = await openRegular(walked.at);
 */
export async function openRegular(at: string): Promise<{ handle?: FileHandle; st: Stats }> {
  const handle = await open(at, READ_FLAGS);
  const st = await handle.stat().catch(async (err: unknown) => {
    await handle.close();
    throw err;
  });
  if (st.isFile()) return { handle, st };
  await handle.close();
  return { st };
}

async function copyContent(from: FileHandle, to: FileHandle): Promise<void> {
  const buffer = Buffer.allocUnsafe(1 << 20);
  for (let position = 0; ;) {
    const { bytesRead } = await from.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    await to.write(buffer, 0, bytesRead);
    position += bytesRead;
  }
}

// A kept mode loses setuid and setgid, as it would if the file were written in place.
const KEPT_BITS = 0o1777;

/**
 * Fills a temporary file beside `target` with `fill`, flushes it to disk, then renames it over
 * `target` in one step: readers (and a crash or `kill -9` at any moment) see the old content or the
 * new, never a part. With `startFrom` (an open regular file), the new file starts with its content
 * and mode. An existing file's permissions are kept unless `mode` is given; the temporary file is
 * removed if anything fails. Everything happens in the walked (held) directory.
 *
 * @example
 * await replaceAtomically(walked, async (h) => { await h.writeFile('new content'); });
 */
export async function replaceAtomically(
  target: Walked,
  fill: (handle: FileHandle) => Promise<void>,
  opts: { mode?: number; startFrom?: { handle: FileHandle; st: Stats } } = {},
): Promise<void> {
  const existing = await lstat(target.at).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (existing?.isDirectory()) {
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, '${target.path}'`), {
      code: 'EISDIR',
    });
  }
  const keep = existing?.isFile() ? existing.mode & KEPT_BITS : undefined;
  const copied = opts.startFrom ? opts.startFrom.st.mode & KEPT_BITS : undefined;
  const temp = target.sibling(tempNameFor(target.name));
  try {
    // 'wx' (O_EXCL) creates the file and never follows a link that appeared under its name.
    const handle = await open(temp, 'wx', opts.mode ?? keep ?? (copied ?? 0o666) | 0o600);
    try {
      if (opts.startFrom) await copyContent(opts.startFrom.handle, handle);
      await fill(handle);
      await handle.sync();
      // open() applies the umask; an explicit, kept or copied mode is set as it is.
      const mode = opts.mode ?? keep ?? copied;
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await rename(temp, target.at);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await syncDir(target.dirAt);
}

/**
 * Writes `data` to `target` atomically (see {@link replaceAtomically}); with `append`, the new file is
 * the old content followed by `data`, still replaced in one step.
 *
 * @example
 * await atomicWrite(walked, 'hello\n', { append: true });
 */
export async function atomicWrite(
  target: Walked,
  data: string | Buffer,
  opts: { append?: boolean; mode?: number } = {},
): Promise<void> {
  await withPathLock(target.path, async () => {
    const old = opts.append
      ? await openRegular(target.at).catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return undefined;
          throw err;
        })
      : undefined;
    try {
      await replaceAtomically(
        target,
        async (handle) => {
          await handle.writeFile(data);
        },
        {
          ...(opts.mode === undefined ? {} : { mode: opts.mode }),
          ...(old?.handle ? { startFrom: { handle: old.handle, st: old.st } } : {}),
        },
      );
    } finally {
      await old?.handle?.close();
    }
  });
}
