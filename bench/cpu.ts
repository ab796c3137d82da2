import { readFileSync } from 'node:fs';

/**
 * utime + stime of a process in milliseconds, from /proc/<pid>/stat (Linux); NaN when it cannot be
 * read (another OS, or the process has exited).
 *
 * @example
 * const before = cpuMillis(child.pid!);
 */
export function cpuMillis(pid: number): number {
  try {
    // The command name (field 2) may hold spaces: the fields counted from after its ") ".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * How busy each process kept its core over a window (1 is one core at 100%), plus "core0" and
 * "core1": how busy those cores were in all (other processes on a shared machine included).
 */
export type CpuShares = Record<string, number>;

// Busy and total jiffies of each CPU, from /proc/stat (idle and iowait are not busy).
function coreTimes(): Map<string, { busy: number; total: number }> {
  const times = new Map<string, { busy: number; total: number }>();
  try {
    for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
      const m = /^(cpu\d+) (.*)$/.exec(line);
      if (!m) continue;
      const f = m[2]!.trim().split(/\s+/).map(Number);
      const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
      times.set(m[1]!.replace('cpu', 'core'), { busy: total - f[3]! - f[4]!, total });
    }
  } catch {
    // Not Linux: no per-core figures.
  }
  return times;
}

/**
 * Samples the CPU time of some processes at `fromMs` and `toMs` after now (a window inside a load
 * run, away from its ramp-up and its end, when the generator may already have exited and its /proc
 * entry with it) and resolves with each one's share of a core over that window.
 *
 * @example
 * const shares = sampleCpu({ server: serverPid, generator: wrkPid }, 500, 2500);
 * (await shares).generator; // 0.98: the generator's core is saturated
 */
export async function sampleCpu(
  pids: Record<string, number>,
  fromMs: number,
  toMs: number,
): Promise<CpuShares> {
  await sleep(fromMs);
  const t0 = performance.now();
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMillis(pid)]));
  const coresBefore = coreTimes();
  await sleep(toMs - fromMs);
  const elapsed = performance.now() - t0;
  const shares: CpuShares = Object.fromEntries(
    Object.entries(pids).map(([k, pid]) => [k, (cpuMillis(pid) - before[k]!) / elapsed]),
  );
  for (const [core, after] of coreTimes()) {
    const b = coresBefore.get(core);
    if (b && after.total > b.total) shares[core] = (after.busy - b.busy) / (after.total - b.total);
  }
  return shares;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * True when a baseline was limited by its load generator rather than by the server: the
 * generator's core was (nearly) saturated while the server's was not. Its ratios then drift
 * toward 1.0 and hide the server's real cost.
 *
 * @example
 * if (generatorBound({ server: 0.6, generator: 0.99 })) console.log('!!! generator-bound');
 */
export function generatorBound(shares: CpuShares): boolean {
  const { server, generator } = shares;
  if (server === undefined || generator === undefined) return false;
  return generator >= 0.9 && server < 0.9 && server < generator - 0.05;
}
