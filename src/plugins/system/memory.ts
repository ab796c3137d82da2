import { z } from '../api/index.ts';
import { keyValues, readOptional, readText } from './host.ts';
import type { Roots } from './host.ts';
import { systemAction } from './platform.ts';

const round1 = (n: number) => Math.round(n * 10) / 10;
const percentOf = (used: number, total: number) => (total > 0 ? round1((used / total) * 100) : 0);

/** /proc/meminfo in bytes, by key (`MemTotal`, `SwapFree`...). */
export async function readMeminfo(roots: Roots): Promise<Map<string, number>> {
  const bytes = new Map<string, number>();
  for (const [key, value] of keyValues(await readText(roots.proc, 'meminfo')))
    bytes.set(key, Number(value) * 1024);
  return bytes;
}

/**
 * psutil's virtual_memory() on Linux, from /proc/meminfo: `cached` counts SReclaimable, as
 * free(1) does; `used` is total - available. Where MemAvailable is 0 or missing (kernels before
 * 3.14) it is estimated as free + buffers + cached, psutil's older formula.
 *
 * @example
 * virtualMemory(await readMeminfo(HOST_ROOTS)).percent; // 43.2
 */
export function virtualMemory(mem: Map<string, number>): Record<string, number> {
  const get = (key: string) => mem.get(key) ?? 0;
  const total = get('MemTotal');
  const free = get('MemFree');
  const buffers = get('Buffers');
  const cached = get('Cached') + get('SReclaimable');
  let available = get('MemAvailable') || free + buffers + cached;
  // More than the total: the figures of a container's host (procps does the same).
  if (available > total) available = free;
  return {
    total,
    available,
    percent: percentOf(total - available, total),
    used: total - available,
    free,
    active: get('Active'),
    inactive: get('Inactive'),
    buffers,
    cached,
    shared: mem.get('Shmem') ?? get('MemShared'),
    slab: get('Slab'),
  };
}

/**
 * system.mem_virtual: psutil's virtual_memory.
 *
 * @example
 * // → {total: 16709894144, available: 9491456000, percent: 43.2, used: ..., free: ..., ...}
 */
export const memVirtual = systemAction({
  name: 'mem_virtual',
  summary:
    'Memory use in bytes (total, available, used, free, buffers, cached...) and percent used.',
  params: {},
  result: z.record(z.string(), z.number()).describe('psutil virtual_memory fields'),
  run: async (_args, { state }) => virtualMemory(await readMeminfo(state.roots)),
});

/**
 * system.mem_swap: psutil's swap_memory; sin and sout are the bytes swapped in and out since boot
 * (pages of /proc/vmstat, counted as 4 KiB as psutil does).
 *
 * @example
 * // → {total: 2147479552, used: 0, free: 2147479552, percent: 0, sin: 0, sout: 0}
 */
export const memSwap = systemAction({
  name: 'mem_swap',
  summary:
    'Swap use in bytes (total, used, free), percent used, and bytes swapped in/out since boot.',
  params: {},
  result: z.record(z.string(), z.number()).describe('psutil swap_memory fields'),
  run: async (_args, { state }) => {
    const mem = await readMeminfo(state.roots);
    const total = mem.get('SwapTotal') ?? 0;
    const free = mem.get('SwapFree') ?? 0;
    const vmstat = keyValues(
      ((await readOptional(state.roots.proc, 'vmstat')) ?? '').replace(/^(\w+) /gm, '$1: '),
    );
    const pages = (key: string) => Number(vmstat.get(key) ?? 0) * 4096;
    return {
      total,
      used: total - free,
      free,
      percent: percentOf(total - free, total),
      sin: pages('pswpin'),
      sout: pages('pswpout'),
    };
  },
});

export const MEMORY_ACTIONS = [memVirtual, memSwap];
