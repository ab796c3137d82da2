import { PipitError, z } from '../api/index.ts';
import { readProcStat } from './cpu.ts';
import { systemAction } from './platform.ts';
import {
  describeProcess,
  fullName,
  memTotal,
  pidExists,
  readCmdline,
  readPidStats,
  readUserNames,
} from './processes.ts';
import type { ProcessContext } from './processes.ts';

/** Why system.processes is refused until the configuration allows it. */
export const PROCESSES_OFF =
  'system.processes is off: it shows every command line, where passwords and tokens often sit. Add "allow_processes: true" to the "system:" section to allow it, then restart Pipit';

/**
 * system.processes: the running processes (or those whose name holds `filter`), with
 * Platypush's fields and the command line. Refused unless `allow_processes: true`.
 *
 * @example
 * // {action: 'system.processes', args: {filter: 'node'}}
 * // → [{pid: 4242, name: 'node', cmdline: ['node', 'server.js'], status: 'sleeping', username: 'pipit', ...}]
 */
export const processes = systemAction({
  name: 'processes',
  summary: 'The running processes: pid, name, command line, status, user, CPU times and memory.',
  description:
    'Off unless the "system:" section has "allow_processes: true": command lines often hold passwords and tokens, and the answer is kept in the run history.',
  params: {
    filter: z
      .string()
      .optional()
      .describe('only processes whose name contains this text (case-sensitive, as Platypush)'),
  },
  result: z.array(z.record(z.string(), z.unknown())).describe('one entry per process'),
  run: async ({ filter }, { state }) => {
    if (!state.config.allow_processes)
      throw new PipitError('FORBIDDEN', PROCESSES_OFF, {
        details: { key: 'system.allow_processes' },
      });
    const { roots } = state;
    const stats = await readPidStats(roots);
    const children = new Map<number, number[]>();
    for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
    const ctx: ProcessContext = {
      roots,
      bootTime: (await readProcStat(roots)).btime,
      memTotal: await memTotal(roots),
      users: await readUserNames(roots),
      children,
    };
    const out: Record<string, unknown>[] = [];
    // A batch at a time: a host with thousands of processes should not open thousands of files.
    for (let i = 0; i < stats.length; i += 64) {
      const batch = await Promise.all(
        stats.slice(i, i + 64).map(async (stat) => {
          // A name shorter than the kernel's 15 characters is whole: no need to read more.
          if (filter && stat.name.length < 15 && !stat.name.includes(filter)) return undefined;
          const cmdline = await readCmdline(roots, stat.pid);
          const named = { ...stat, name: fullName(stat.name, cmdline) };
          if (filter && !named.name.includes(filter)) return undefined;
          return describeProcess(named, cmdline, ctx);
        }),
      );
      for (const entry of batch) if (entry) out.push(entry);
    }
    return out;
  },
});

/**
 * system.pid_exists: whether a process runs with this pid.
 *
 * @example
 * // {action: 'system.pid_exists', args: {pid: 1}} → true
 */
export const pidExistsAction = systemAction({
  name: 'pid_exists',
  summary: 'Whether a process with this pid is running (a thread id answers false).',
  params: { pid: z.number().int().positive().describe('the process id') },
  result: z.boolean(),
  run: ({ pid }, { state }) => pidExists(state.roots, pid),
});

export const PROCESS_ACTIONS = [processes, pidExistsAction];
