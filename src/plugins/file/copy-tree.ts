import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, symlink } from 'node:fs/promises';
import { READ_FLAGS } from './atomic.ts';
import { chmodNoFollow, openDirIn, viaDir } from './walk.ts';
import type { HeldDir } from './walk.ts';

// New entries only: O_EXCL never follows a link that appeared under the name.
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

async function copyFileIn(from: HeldDir, to: HeldDir, name: string, mode: number): Promise<void> {
  const source = await open(`${viaDir(from)}/${name}`, READ_FLAGS);
  try {
    // A regular file only: a FIFO or device put there since the listing is skipped, not read.
    if (!(await source.stat()).isFile()) return;
    const target = await open(`${viaDir(to)}/${name}`, CREATE, mode | 0o600);
    try {
      const buffer = Buffer.allocUnsafe(1 << 16);
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        await target.write(buffer, 0, bytesRead);
      }
      await target.chmod(mode);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/**
 * Copies the directory `name` in `from` to a new directory `name` in `to` (see {@link copyTree}).
 *
 * @example
 * await copyDirIn(sourceParent, targetParent, 'photos', 0o755);
 */
export async function copyDirIn(
  from: HeldDir,
  to: HeldDir,
  name: string,
  mode: number,
  as: string = name,
): Promise<void> {
  // Writable while it is filled; its own mode once full.
  await mkdir(`${viaDir(to)}/${as}`, mode | 0o700);
  const sub = await openDirIn(from, name);
  try {
    const made = await openDirIn(to, as);
    try {
      await copyTree(sub, made);
    } finally {
      await made.handle.close();
    }
  } finally {
    await sub.handle.close();
  }
  await chmodNoFollow(`${viaDir(to)}/${as}`, mode);
}

/**
 * Copies the content of the held directory `from` into the held, new directory `to`: files (with
 * their permission bits, less setuid and setgid), directories, and symbolic links as links (reading
 * through one later is checked against the roots). Every entry is created inside a held directory
 * and opened without following links, so a link moved into either tree during the copy cannot take
 * it elsewhere (cp works by path, and would follow one). FIFOs, sockets and devices are skipped.
 *
 * @example
 * await copyTree(sourceDir, newTargetDir);
 */
export async function copyTree(from: HeldDir, to: HeldDir): Promise<void> {
  for (const entry of await readdir(viaDir(from), { withFileTypes: true })) {
    const name = entry.name;
    const st = await lstat(`${viaDir(from)}/${name}`);
    const mode = st.mode & 0o1777;
    if (st.isSymbolicLink()) {
      await symlink(await readlink(`${viaDir(from)}/${name}`), `${viaDir(to)}/${name}`);
    } else if (st.isFile()) {
      await copyFileIn(from, to, name, mode);
    } else if (st.isDirectory()) {
      await copyDirIn(from, to, name, mode);
    }
  }
}
