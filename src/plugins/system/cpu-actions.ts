import { setTimeout as delay } from 'node:timers/promises';
import { PipitError, z } from '../api/index.ts';
import {
  averageFrequency,
  CPU_FIELDS,
  busyPercent,
  readCpuFrequencies,
  readProcStat,
  timesPercent,
  toSeconds,
} from './cpu.ts';
import type { CpuSample } from './cpu.ts';
import { readText } from './host.ts';
import { systemAction } from './platform.ts';
import type { SystemState } from './state.ts';

/** The longest cpu_percent interval, so that a typo cannot park a call for an hour. */
export const MAX_CPU_INTERVAL_SECONDS = 60;

const perCpu = z.boolean().default(false).describe('one value per CPU instead of the whole host');

const cpuTimesShape = z
  .object(Object.fromEntries(CPU_FIELDS.map((f) => [f, z.number()])))
  .describe('seconds (or percent) per CPU state');

// The sample a non-blocking reading compares with (the previous one of this action and per_cpu,
// or the plugin's start), replaced by the new one.
async function sinceLast(state: SystemState, key: string): Promise<[CpuSample, CpuSample]> {
  const now = await readProcStat(state.roots);
  const before = state.lastCpu.get(key) ?? state.lastCpu.get('start') ?? now;
  state.lastCpu.set(key, now);
  return [before, now];
}

/**
 * system.cpu_percent: the busy share of the CPUs, Platypush's (psutil's) way.
 *
 * @example
 * // {action: 'system.cpu_percent', args: {interval: 1}} → 12.5
 * // {action: 'system.cpu_percent', args: {per_cpu: true, interval: 1}} → [10.1, 14.9]
 */
export const cpuPercent = systemAction({
  name: 'cpu_percent',
  summary: 'The CPU load in percent (0-100), for the host or per CPU.',
  description:
    'With an interval, /proc/stat is read twice that many seconds apart; without one (or 0), since the previous call without one (the first: since the plugin started), as psutil does.',
  params: {
    per_cpu: perCpu,
    interval: z
      .number()
      .min(0)
      .max(MAX_CPU_INTERVAL_SECONDS)
      .nullable()
      .optional()
      .describe(
        `seconds to measure over (0 to ${MAX_CPU_INTERVAL_SECONDS}); none: since the previous call`,
      ),
  },
  result: z.union([z.number(), z.array(z.number())]).describe('percent, or one per CPU'),
  run: async ({ per_cpu, interval }, { state, signal }) => {
    let before: CpuSample;
    let after: CpuSample;
    if (interval) {
      before = await readProcStat(state.roots);
      try {
        await delay(interval * 1000, undefined, { signal });
      } catch (err) {
        throw new PipitError(
          'ACTION_FAILED',
          'system.cpu_percent: interrupted after the caller gave up',
          { cause: err },
        );
      }
      after = await readProcStat(state.roots);
    } else [before, after] = await sinceLast(state, `cpu_percent:${per_cpu}`);
    return per_cpu
      ? after.per.map((ticks, i) => busyPercent(before.per[i] ?? ticks, ticks))
      : busyPercent(before.total, after.total);
  },
});

/**
 * system.cpu_times: time spent in each CPU state, in seconds since boot (or percent).
 *
 * @example
 * // {action: 'system.cpu_times'} → {user: 22226.93, nice: 206.93, system: 7836.21, idle: ..., ...}
 */
export const cpuTimes = systemAction({
  name: 'cpu_times',
  summary: 'Time spent by the CPUs in each state (user, system, idle, iowait...), in seconds.',
  description:
    "percent: each state's share (0-100) since the previous such call (the first: since the plugin started), as psutil's cpu_times_percent.",
  params: {
    per_cpu: perCpu,
    percent: z
      .boolean()
      .default(false)
      .describe('shares in percent since the previous call instead of seconds since boot'),
  },
  result: z.union([cpuTimesShape, z.array(cpuTimesShape)]),
  run: async ({ per_cpu, percent }, { state }) => {
    if (!percent) {
      const now = await readProcStat(state.roots);
      return per_cpu ? now.per.map(toSeconds) : toSeconds(now.total);
    }
    const [before, after] = await sinceLast(state, `cpu_times:${per_cpu}`);
    return per_cpu
      ? after.per.map((ticks, i) => timesPercent(before.per[i] ?? ticks, ticks))
      : timesPercent(before.total, after.total);
  },
});

/**
 * system.cpu_stats: the kernel's counters since boot.
 *
 * @example
 * // → {ctx_switches: 920187283, interrupts: 412098123, soft_interrupts: 290112345, syscalls: 0}
 */
export const cpuStats = systemAction({
  name: 'cpu_stats',
  summary: 'Context switches, interrupts and soft interrupts since boot (syscalls: 0 on Linux).',
  params: {},
  result: z.object({
    ctx_switches: z.number(),
    interrupts: z.number(),
    soft_interrupts: z.number(),
    syscalls: z.number(),
  }),
  run: async (_args, { state }) => {
    const stat = await readProcStat(state.roots);
    return {
      ctx_switches: stat.ctx_switches,
      interrupts: stat.interrupts,
      soft_interrupts: stat.soft_interrupts,
      syscalls: 0,
    };
  },
});

const frequencyShape = z.object({ current: z.number(), min: z.number(), max: z.number() });

/**
 * system.cpu_frequency: in MHz.
 *
 * @example
 * // → {current: 2096.013, min: 0, max: 0}
 */
export const cpuFrequency = systemAction({
  name: 'cpu_frequency',
  summary:
    'The CPU frequency in MHz (current, min, max; min and max 0 when the kernel does not say).',
  params: { per_cpu: perCpu },
  result: z.union([frequencyShape, z.array(frequencyShape)]),
  run: async ({ per_cpu }, { state }) => {
    const freqs = await readCpuFrequencies(state.roots);
    if (freqs.length === 0)
      throw new PipitError(
        'ACTION_FAILED',
        'system.cpu_frequency: this kernel reports no CPU frequency (no cpufreq in /sys, no "cpu MHz" in /proc/cpuinfo)',
      );
    return per_cpu ? freqs : averageFrequency(freqs);
  },
});

/**
 * system.load_avg: /proc/loadavg's three averages.
 *
 * @example
 * // → [0.52, 0.58, 0.59]
 */
export const loadAvg = systemAction({
  name: 'load_avg',
  summary: 'The load average over the last 1, 5 and 15 minutes.',
  params: {},
  result: z.tuple([z.number(), z.number(), z.number()]),
  run: async (_args, { state }) => {
    const [one, five, fifteen] = (await readText(state.roots.proc, 'loadavg'))
      .split(/\s+/)
      .map(Number);
    return [one ?? 0, five ?? 0, fifteen ?? 0];
  },
});

/**
 * system.boot_time: when the host booted, as psutil's boot_time.
 *
 * @example
 * // → 1718000000
 */
export const bootTime = systemAction({
  name: 'boot_time',
  summary: 'When the host booted, in seconds since the epoch (btime of /proc/stat).',
  params: {},
  result: z.number(),
  run: async (_args, { state }) => (await readProcStat(state.roots)).btime,
});

export const CPU_ACTIONS = [cpuPercent, cpuTimes, cpuStats, cpuFrequency, loadAvg, bootTime];
