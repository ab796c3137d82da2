import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CLOCK_TICKS, readInt, readOptional, readText } from './host.ts';
import type { Roots } from './host.ts';

/** psutil's CPU time fields on Linux, in /proc/stat's order. */
export const CPU_FIELDS = [
  'user',
  'nice',
  'system',
  'idle',
  'iowait',
  'irq',
  'softirq',
  'steal',
  'guest',
  'guest_nice',
] as const;

export type CpuTimes = Record<(typeof CPU_FIELDS)[number], number>;

/** One reading of /proc/stat: clock ticks per field, for all CPUs and for each. */
export interface CpuSample {
  total: number[];
  per: number[][];
}

/** /proc/stat, parsed: CPU ticks and the kernel's counters. */
export interface ProcStat extends CpuSample {
  ctx_switches: number;
  interrupts: number;
  soft_interrupts: number;
  /** Seconds since the epoch when the host booted. */
  btime: number;
}

/**
 * Reads and parses /proc/stat.
 *
 * @example
 * (await readProcStat(HOST_ROOTS)).per.length; // the online CPUs
 */
export async function readProcStat(roots: Roots): Promise<ProcStat> {
  return parseProcStat(await readText(roots.proc, 'stat'));
}

/**
 * Parses /proc/stat's text (fields a kernel lacks, as iowait before 2.5.41, read as 0).
 *
 * @example
 * parseProcStat('cpu  1 2 3 4\ncpu0 1 2 3 4\nbtime 1700000000\n').btime; // 1700000000
 */
export function parseProcStat(text: string): ProcStat {
  const stat: ProcStat = {
    total: [],
    per: [],
    ctx_switches: 0,
    interrupts: 0,
    soft_interrupts: 0,
    btime: 0,
  };
  for (const line of text.split('\n')) {
    const [key, ...rest] = line.trim().split(/\s+/);
    if (!key) continue;
    const ticks = () => CPU_FIELDS.map((_, i) => Number(rest[i] ?? 0));
    if (key === 'cpu') stat.total = ticks();
    else if (/^cpu\d+$/.test(key)) stat.per.push(ticks());
    else if (key === 'ctxt') stat.ctx_switches = Number(rest[0]);
    else if (key === 'intr') stat.interrupts = Number(rest[0]);
    else if (key === 'softirq') stat.soft_interrupts = Number(rest[0]);
    else if (key === 'btime') stat.btime = Number(rest[0]);
  }
  return stat;
}

/**
 * Ticks as psutil's seconds.
 *
 * @example
 * toSeconds([100, 0, 50, 1000, 0, 0, 0, 0, 0, 0]).user; // 1
 */
export function toSeconds(ticks: number[]): CpuTimes {
  return Object.fromEntries(
    CPU_FIELDS.map((field, i) => [field, (ticks[i] ?? 0) / CLOCK_TICKS]),
  ) as CpuTimes;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

// Times can step back (psutil issues 392, 645, 1210): a negative delta counts as 0, as top does.
function deltas(before: number[], after: number[]): number[] {
  return after.map((value, i) => Math.max(0, value - (before[i] ?? 0)));
}

// Guest time is already counted in user and nice, so psutil (and htop) leave it out of the total.
function totalOf(delta: number[]): number {
  return delta.reduce((sum, v) => sum + v, 0) - (delta[8] ?? 0) - (delta[9] ?? 0);
}

/**
 * The busy share of the CPU time between two readings, in percent (one decimal), as psutil's
 * cpu_percent: everything but idle and iowait. 0 when no time passed.
 *
 * @example
 * busyPercent([0, 0, 0, 0], [30, 0, 10, 60]); // 40
 */
export function busyPercent(before: number[], after: number[]): number {
  const delta = deltas(before, after);
  const total = totalOf(delta);
  if (total <= 0) return 0;
  return round1(((total - (delta[3] ?? 0) - (delta[4] ?? 0)) / total) * 100);
}

/**
 * Each field's share of the CPU time between two readings, in percent, as psutil's
 * cpu_times_percent.
 *
 * @example
 * timesPercent([0, 0, 0, 0], [30, 0, 10, 60]).idle; // 60
 */
export function timesPercent(before: number[], after: number[]): CpuTimes {
  const delta = deltas(before, after);
  const scale = 100 / Math.max(1, totalOf(delta));
  return Object.fromEntries(
    CPU_FIELDS.map((field, i) => [
      field,
      Math.min(100, Math.max(0, round1((delta[i] ?? 0) * scale))),
    ]),
  ) as CpuTimes;
}

/** One CPU's frequency in MHz, as psutil's cpu_freq (min and max 0 when the kernel does not say). */
export interface CpuFrequency {
  current: number;
  min: number;
  max: number;
}

/**
 * Each CPU's frequency: from cpufreq in /sys when the kernel has it, else the "cpu MHz" lines of
 * /proc/cpuinfo with min and max 0 (psutil's two ways).
 *
 * @example
 * (await readCpuFrequencies(HOST_ROOTS))[0]; // { current: 2096.013, min: 0, max: 0 }
 */
export async function readCpuFrequencies(roots: Roots): Promise<CpuFrequency[]> {
  const fromInfo = cpuinfoMhz((await readOptional(roots.proc, 'cpuinfo')) ?? '');
  const base = 'devices/system/cpu/cpufreq';
  const policies = ((await readdir(join(roots.sys, base)).catch(() => [])) as string[])
    .filter((name) => /^policy\d+$/.test(name))
    .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
  if (policies.length === 0) return fromInfo.map((current) => ({ current, min: 0, max: 0 }));
  const out: CpuFrequency[] = [];
  for (const policy of policies) {
    const dir = `${base}/${policy}`;
    const affected = (await readOptional(roots.sys, `${dir}/affected_cpus`))?.trim().split(/\s+/);
    const khz = async (file: string) => ((await readInt(roots.sys, `${dir}/${file}`)) ?? 0) / 1000;
    const cur =
      (await readInt(roots.sys, `${dir}/scaling_cur_freq`)) ??
      (await readInt(roots.sys, `${dir}/cpuinfo_cur_freq`));
    if (cur === undefined) continue;
    const entry = {
      current: cur / 1000,
      min: await khz('scaling_min_freq'),
      max: await khz('scaling_max_freq'),
    };
    for (let i = 0; i < Math.max(1, affected?.length ?? 1); i++) out.push({ ...entry });
  }
  // The kernel refreshes "cpu MHz" more often than scaling_cur_freq (psutil issue 1851).
  if (out.length === fromInfo.length) out.forEach((f, i) => (f.current = fromInfo[i]!));
  return out;
}

function cpuinfoMhz(text: string): number[] {
  const out: number[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    const key = line.slice(0, colon).trim().toLowerCase();
    if (key === 'cpu mhz' || key === 'clock' || key === 'cpu mhz dynamic') {
      const value = parseFloat(line.slice(colon + 1));
      if (Number.isFinite(value)) out.push(value);
    }
  }
  return out;
}

/**
 * The average of several CPUs' frequencies, as psutil's cpu_freq(percpu=False).
 *
 * @example
 * averageFrequency([{ current: 2, min: 1, max: 3 }, { current: 4, min: 1, max: 3 }]).current; // 3
 */
export function averageFrequency(freqs: CpuFrequency[]): CpuFrequency {
  const n = Math.max(1, freqs.length);
  const sum = (key: keyof CpuFrequency) => freqs.reduce((s, f) => s + f[key], 0) / n;
  return { current: sum('current'), min: sum('min'), max: sum('max') };
}
