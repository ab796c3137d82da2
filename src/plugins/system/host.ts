import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where the host's facts are read: Linux's /proc and /sys, and /etc for user names. Tests point
 * these at a folder of fixture files to read a machine with sensors or a battery.
 */
export interface Roots {
  proc: string;
  sys: string;
  etc: string;
}

/** The running host's folders. */
export const HOST_ROOTS: Readonly<Roots> = Object.freeze({
  proc: '/proc',
  sys: '/sys',
  etc: '/etc',
});

/**
 * Linux's USER_HZ, the unit of /proc/stat and /proc/<pid>/stat times. Node cannot call
 * sysconf(_SC_CLK_TCK); the kernel fixes it at 100 on every architecture Node runs on.
 */
export const CLOCK_TICKS = 100;

/**
 * Reads a text file under a root.
 *
 * @example
 * await readText(HOST_ROOTS.proc, 'loadavg'); // '0.52 0.58 0.59 1/467 12345\n'
 */
export function readText(root: string, path: string): Promise<string> {
  return readFile(join(root, path), 'utf8');
}

// Files in /sys and /proc that a kernel, a driver or a container may leave out or refuse.
const ABSENT = new Set([
  'ENOENT',
  'ENOTDIR',
  'EACCES',
  'EPERM',
  'EINVAL',
  'ENODEV',
  'ENXIO',
  'EIO',
]);

/**
 * Reads a text file that may be absent or unreadable: undefined then.
 *
 * @example
 * await readOptional(HOST_ROOTS.sys, 'class/net/lo/speed'); // undefined (EINVAL on lo)
 */
export async function readOptional(root: string, path: string): Promise<string | undefined> {
  try {
    return await readText(root, path);
  } catch (err) {
    if (ABSENT.has((err as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw err;
  }
}

/**
 * An integer file (`/sys/.../mtu`), or undefined when absent or not a number.
 *
 * @example
 * await readInt(HOST_ROOTS.sys, 'class/net/lo/mtu'); // 65536
 */
export async function readInt(root: string, path: string): Promise<number | undefined> {
  const text = await readOptional(root, path);
  if (text === undefined) return undefined;
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) ? value : undefined;
}

/**
 * `Key: value` lines (/proc/meminfo, /proc/<pid>/status) as a map of the first word of each value.
 *
 * @example
 * keyValues('MemTotal:  16318504 kB\n').get('MemTotal'); // '16318504'
 */
export function keyValues(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      map.set(
        line.slice(0, colon).trim(),
        line
          .slice(colon + 1)
          .trim()
          .split(/\s+/)[0] ?? '',
      );
  }
  return map;
}

let pageSize: number | undefined;

/**
 * The kernel's page size in bytes (the unit of /proc/<pid>/statm), read once from this process's
 * first mapping in /proc/self/smaps: Node has no sysconf(_SC_PAGESIZE).
 *
 * @example
 * await pageBytes(HOST_ROOTS.proc); // 4096
 */
export async function pageBytes(procRoot: string): Promise<number> {
  if (pageSize !== undefined) return pageSize;
  let head = '';
  try {
    const file = await open(join(procRoot, 'self/smaps'));
    try {
      const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(4096) });
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await file.close();
    }
  } catch {
    // No smaps (a kernel without CONFIG_PROC_PAGE_MONITOR): 4 KiB, as on nearly every machine.
  }
  const kib = /KernelPageSize:\s+(\d+) kB/.exec(head)?.[1];
  pageSize = kib ? Number(kib) * 1024 : 4096;
  return pageSize;
}
