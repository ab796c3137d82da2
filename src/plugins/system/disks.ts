import { statfs } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { PipitError, z } from '../api/index.ts';
import { readOptional, readText } from './host.ts';
import type { Roots } from './host.ts';
import { systemAction } from './platform.ts';

/** One mounted file system, psutil's fields (and Platypush's older `mount_point`). */
export interface Partition {
  device: string;
  mountpoint: string;
  mount_point: string;
  fstype: string;
  opts: string;
}

// /proc/self/mounts writes a space, tab, newline or backslash in a path as an octal escape.
const unescape = (field: string) =>
  field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

// A mount option that carries a password (some FUSE and network file systems show it) is masked.
const maskSecrets = (opts: string) =>
  opts.replace(/\b(pass(?:word|wd)?|secret|token)=[^,]*/gi, '$1=[redacted]');

/**
 * The mounted file systems. Without `all`, only those on a device whose type /proc/filesystems
 * lists as block-backed (plus zfs), as psutil's disk_partitions(all=False).
 *
 * @example
 * (await readPartitions(HOST_ROOTS, false))[0]; // {device: '/dev/vda', mountpoint: '/', fstype: 'ext4', ...}
 */
export async function readPartitions(roots: Roots, all: boolean): Promise<Partition[]> {
  const physical = new Set<string>();
  for (const line of ((await readOptional(roots.proc, 'filesystems')) ?? '').split('\n')) {
    const [first, second] = line.split('\t');
    if (first === '' && second) physical.add(second.trim());
    else if (first === 'nodev' && second?.trim() === 'zfs') physical.add('zfs');
  }
  const out: Partition[] = [];
  for (const line of (await readText(roots.proc, 'self/mounts')).split('\n')) {
    const [rawDevice, rawMount, fstype, opts] = line.split(' ');
    if (!rawMount || !fstype) continue;
    const device = rawDevice === 'none' ? '' : unescape(rawDevice ?? '');
    if (!all && (!device || !physical.has(fstype))) continue;
    const mountpoint = unescape(rawMount);
    out.push({
      device,
      mountpoint,
      mount_point: mountpoint,
      fstype,
      opts: maskSecrets(opts ?? ''),
    });
  }
  return out;
}

/**
 * psutil's disk_usage of the file system holding `path`: `total` and `used` count the blocks
 * kept for root, `free` and `percent` are what other users may use (as df's Avail and Use%).
 *
 * @example
 * await diskUsage('/'); // {path: '/', total: 105089261568, used: ..., free: ..., percent: 51.3}
 */
export async function diskUsage(path: string): Promise<Record<string, unknown>> {
  const st = await statfs(path, { bigint: true });
  const total = Number(st.blocks * st.bsize);
  const used = total - Number(st.bfree * st.bsize);
  const free = Number(st.bavail * st.bsize);
  const percent = used + free > 0 ? Math.round((used / (used + free)) * 1000) / 10 : 0;
  return { path, total, used, free, percent };
}

const usageShape = z.object({
  path: z.string(),
  total: z.number(),
  used: z.number(),
  free: z.number(),
  percent: z.number(),
});

/**
 * system.disk_usage: one file system's use, or every mounted disk's.
 *
 * @example
 * // {action: 'system.disk_usage', args: {path: '/'}} → {path: '/', total: ..., used: ..., free: ..., percent: 51.3}
 */
export const diskUsageAction = systemAction({
  name: 'disk_usage',
  summary: 'Space used and free (bytes, percent) on the file system of a path, or on every disk.',
  params: {
    path: z
      .string()
      .refine(isAbsolute, 'must be an absolute path, such as "/" or "/home"')
      .optional()
      .describe('an absolute path on the file system to measure; none: every mounted disk'),
  },
  result: z.union([usageShape, z.array(usageShape)]),
  run: async ({ path }, { state }) => {
    if (path === undefined) {
      const all = await Promise.all(
        (await readPartitions(state.roots, false)).map((p) =>
          diskUsage(p.mountpoint).catch(() => undefined),
        ),
      );
      return all.filter((u) => u !== undefined);
    }
    try {
      return await diskUsage(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR')
        throw new PipitError(
          'NOT_FOUND',
          `system.disk_usage: ${path} does not exist: give a path on a mounted file system`,
          { cause: err, details: { path } },
        );
      throw err;
    }
  },
});

/**
 * system.disk_partitions: the mounted disks.
 *
 * @example
 * // → [{device: '/dev/vda', mountpoint: '/', mount_point: '/', fstype: 'ext4', opts: 'rw,relatime'}]
 */
export const diskPartitions = systemAction({
  name: 'disk_partitions',
  summary: 'The mounted disks: device, mount point, file system type and mount options.',
  params: {
    all: z
      .boolean()
      .default(false)
      .describe('every mount (proc, tmpfs, cgroup...), not only those on a disk'),
  },
  result: z.array(
    z.object({
      device: z.string(),
      mountpoint: z.string(),
      mount_point: z.string().describe("the same, by Platypush's older name"),
      fstype: z.string(),
      opts: z.string(),
    }),
  ),
  run: ({ all }, { state }) => readPartitions(state.roots, all),
});

export const DISK_ACTIONS = [diskUsageAction, diskPartitions];
