import { readdir, readlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CLOCK_TICKS, keyValues, pageBytes, readOptional, readText } from './host.ts';
import type { Roots } from './host.ts';

// psutil's names of the state letters of /proc/<pid>/stat.
const STATUSES: Record<string, string> = {
  R: 'running',
  S: 'sleeping',
  D: 'disk-sleep',
  T: 'stopped',
  t: 'tracing-stop',
  Z: 'zombie',
  X: 'dead',
  x: 'dead',
  K: 'wake-kill',
  W: 'waking',
  I: 'idle',
  P: 'parked',
};

/** /proc/<pid>/stat, the fields the plugin uses. */
export interface PidStat {
  pid: number;
  name: string;
  status: string;
  ppid: number;
  ttyNr: number;
  /** Clock ticks: user, system, children's user, children's system. */
  times: [number, number, number, number];
  /** Clock ticks after boot when the process started. */
  start: number;
}

/**
 * Parses /proc/<pid>/stat. The name sits in parentheses and may itself hold spaces and
 * parentheses: it ends at the last ")".
 *
 * @example
 * parsePidStat(1, '1 (systemd) S 0 1 1 0 -1 ...').name; // 'systemd'
 */
export function parsePidStat(pid: number, text: string): PidStat {
  const close = text.lastIndexOf(')');
  const f = text.slice(close + 2).split(' ');
  const n = (i: number) => Number(f[i] ?? 0);
  return {
    pid,
    name: text.slice(text.indexOf('(') + 1, close),
    status: STATUSES[f[0] ?? ''] ?? '?',
    ppid: n(1),
    ttyNr: n(4),
    times: [n(11), n(12), n(13), n(14)],
    start: n(19),
  };
}

/**
 * The terminal a tty number of /proc/<pid>/stat stands for (/dev/pts/N, /dev/ttyN, /dev/ttySN),
 * or null: decoded from the device numbers rather than by stat()ing all of /dev as psutil does.
 *
 * @example
 * terminalOf(34817); // '/dev/pts/1'
 */
export function terminalOf(ttyNr: number): string | null {
  if (ttyNr === 0) return null;
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
  if (major >= 136 && major <= 143) return `/dev/pts/${(major - 136) * 256 + minor}`;
  if (major === 4) return minor < 64 ? `/dev/tty${minor}` : `/dev/ttyS${minor - 64}`;
  if (major === 5 && minor === 1) return '/dev/console';
  return null;
}

/** Every process's /proc/<pid>/stat (those that end while being read are left out). */
export async function readPidStats(roots: Roots): Promise<PidStat[]> {
  const pids = (await readdir(roots.proc)).filter((n) => /^\d+$/.test(n)).map(Number);
  const stats = await Promise.all(
    pids.map(async (pid) => {
      const text = await readOptional(roots.proc, `${pid}/stat`).catch(() => undefined);
      return text === undefined ? undefined : parsePidStat(pid, text);
    }),
  );
  return stats.filter((s) => s !== undefined).sort((a, b) => a.pid - b.pid);
}

/** /etc/passwd's user names by uid. */
export async function readUserNames(roots: Roots): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const line of ((await readOptional(roots.etc, 'passwd')) ?? '').split('\n')) {
    const [name, , uid] = line.split(':');
    if (name && uid && !names.has(Number(uid))) names.set(Number(uid), name);
  }
  return names;
}

/** What the caller of processes needs besides the pid's own files. */
export interface ProcessContext {
  roots: Roots;
  bootTime: number;
  memTotal: number;
  users: Map<number, string>;
  children: Map<number, number[]>;
}

/**
 * Platypush's processes entry of one process (psutil's fields), with its command line; undefined
 * when it ended meanwhile.
 *
 * @example
 * await describeProcess(stat, cmdline, ctx); // {pid: 1, name: 'systemd', cmdline: ['/sbin/init'], ...}
 */
export async function describeProcess(
  stat: PidStat,
  cmdline: string[],
  ctx: ProcessContext,
): Promise<Record<string, unknown> | undefined> {
  const dir = String(stat.pid);
  const [statm, status] = await Promise.all([
    readOptional(ctx.roots.proc, `${dir}/statm`),
    readOptional(ctx.roots.proc, `${dir}/status`),
  ]);
  if (statm === undefined || status === undefined) return undefined;
  const page = await pageBytes(ctx.roots.proc);
  const [vms = 0, rss = 0, shared = 0, text = 0, , data = 0] = statm
    .trim()
    .split(/\s+/)
    .map((v) => Number(v) * page);
  const uid = Number(keyValues(status).get('Uid'));
  const exe = await readlink(join(ctx.roots.proc, dir, 'exe')).catch(() => null);
  const [utime, stime, cutime, cstime] = stat.times.map((t) => t / CLOCK_TICKS) as [
    number,
    number,
    number,
    number,
  ];
  return {
    pid: stat.pid,
    name: stat.name,
    cmdline,
    exe,
    started: new Date((ctx.bootTime + stat.start / CLOCK_TICKS) * 1000).toISOString(),
    ppid: stat.ppid,
    children: ctx.children.get(stat.pid) ?? [],
    status: stat.status,
    username: ctx.users.get(uid) ?? String(uid),
    terminal: terminalOf(stat.ttyNr),
    cpu_user_time: utime,
    cpu_system_time: stime,
    cpu_children_user_time: cutime,
    cpu_children_system_time: cstime,
    mem_rss: rss,
    mem_vms: vms,
    mem_shared: shared,
    mem_text: text,
    mem_data: data,
    mem_lib: 0,
    mem_dirty: 0,
    mem_percent: ctx.memTotal > 0 ? (rss / ctx.memTotal) * 100 : 0,
  };
}

/**
 * A process's command line, split at its NUL bytes ([] for a kernel thread or one gone).
 *
 * @example
 * await readCmdline(HOST_ROOTS, process.pid); // ['/usr/bin/node', 'server.js']
 */
export async function readCmdline(roots: Roots, pid: number): Promise<string[]> {
  const raw = (await readOptional(roots.proc, `${pid}/cmdline`).catch(() => undefined)) ?? '';
  const parts = raw.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/**
 * A process's name as psutil gives it: the kernel keeps 15 characters, so a name that long is
 * completed from the command line's program when that starts with it.
 *
 * @example
 * fullName('kworker-something', ['/usr/bin/kworker-something-longer']); // 'kworker-something-longer'
 */
export function fullName(name: string, cmdline: string[]): string {
  if (name.length < 15 || !cmdline[0]) return name;
  const program = basename(cmdline[0]);
  return program.startsWith(name) ? program : name;
}

/** Whether `pid` is a process (not one of its threads), as psutil's pid_exists. */
export async function pidExists(roots: Roots, pid: number): Promise<boolean> {
  const status = await readOptional(roots.proc, `${pid}/status`);
  return status !== undefined && Number(keyValues(status).get('Tgid')) === pid;
}

/** Reads /proc/meminfo's MemTotal in bytes. */
export async function memTotal(roots: Roots): Promise<number> {
  return Number(keyValues(await readText(roots.proc, 'meminfo')).get('MemTotal') ?? 0) * 1024;
}
