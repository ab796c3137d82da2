import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** How many previous versions of each file are kept. */
export const KEPT_VERSIONS = 20;

/** The folder of the workdir where previous versions of edited files are kept. */
export function historyDir(workdir: string): string {
  return join(workdir, 'automations-history');
}

// `config.yaml.3f2a9c1e.` : the file's name and a hash of its folder, so that two config.yaml in
// different folders do not share their versions.
function prefixOf(file: string): string {
  const hash = createHash('sha256').update(dirname(file)).digest('hex').slice(0, 8);
  return `${basename(file)}.${hash}.`;
}

/**
 * Copies `file` (when it exists) to `<dir>/<name>.<hash of its folder>.<UTC time>` and removes
 * the copies of it beyond the newest {@link KEPT_VERSIONS}. Returns the copy's path, or null.
 *
 * @example
 * keepPrevious('/etc/pipit/config.yaml', '/var/lib/pipit/automations-history');
 */
export function keepPrevious(file: string, dir: string): string | null {
  if (!existsSync(file)) return null;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const prefix = prefixOf(file);
  const stamp = new Date().toISOString().replace(/[-:]/g, '');
  let copy = join(dir, `${prefix}${stamp}`);
  for (let i = 1; existsSync(copy); i++)
    copy = join(dir, `${prefix}${stamp}-${String(i).padStart(4, '0')}`);
  copyFileSync(file, copy);
  const copies = readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .sort();
  for (const old of copies.slice(0, Math.max(0, copies.length - KEPT_VERSIONS)))
    rmSync(join(dir, old), { force: true });
  return copy;
}

/** The kept previous versions of `file`, oldest first. */
export function previousVersions(file: string, dir: string): string[] {
  if (!existsSync(dir)) return [];
  const prefix = prefixOf(file);
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .sort()
    .map((f) => join(dir, f));
}

/**
 * Replaces `file` with `text` so that a crash at any point leaves either the old file or the new
 * one, whole: the text goes to a temporary file beside it, is flushed to the disk, and is renamed
 * over the file (the folder is flushed too). The file keeps its permissions. `beforeRename` is
 * called between the flush and the rename (tests stop the process there).
 *
 * @example
 * writeAtomic('/etc/pipit/automations.yaml', 'cron.A:\n  ...\n');
 */
export function writeAtomic(file: string, text: string, beforeRename?: () => void): void {
  const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
  const fd = openSync(tmp, 'wx', mode);
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    beforeRename?.();
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  try {
    const dir = openSync(dirname(file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some file systems refuse to flush a folder: the rename is still atomic.
  }
}
