import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

// system's CPU, memory, load, boot and disk actions, each checked against what /proc, statfs
// (through df) and os say at the same moment. The plugin is on without a section.

const FIELDS = [
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
];

function procStat(): { cpu: number[]; per: number[][]; ctxt: number; btime: number } {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  const nums = (line: string) => line.trim().split(/\s+/).slice(1).map(Number);
  return {
    cpu: nums(lines.find((l) => l.startsWith('cpu '))!),
    per: lines.filter((l) => /^cpu\d/.test(l)).map(nums),
    ctxt: nums(lines.find((l) => l.startsWith('ctxt'))!)[0]!,
    btime: nums(lines.find((l) => l.startsWith('btime'))!)[0]!,
  };
}

function meminfo(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync('/proc/meminfo', 'utf8').split('\n')) {
    const m = /^(\w+(?:\(\w+\))?):\s+(\d+)/.exec(line);
    if (m) out[m[1]!] = Number(m[2]) * 1024;
  }
  return out;
}

let t: TestApp;
beforeAll(async () => {
  t = await makeApp('');
});
afterAll(async () => {
  await t?.close();
});

describe('system: CPU', () => {
  it('cpu_percent over an interval is a percentage, per CPU one per os.cpus()', async () => {
    const whole = await call(t, 'system.cpu_percent', { interval: 0.2 });
    expect(whole.errors).toEqual([]);
    expect(whole.output).toBeGreaterThanOrEqual(0);
    expect(whole.output).toBeLessThanOrEqual(100);
    const per = (await call(t, 'system.cpu_percent', { per_cpu: true, interval: 0.2 }))
      .output as number[];
    expect(per).toHaveLength(cpus().length);
    for (const p of per) expect(p >= 0 && p <= 100).toBe(true);
  });

  it('cpu_percent without an interval answers at once, since the previous call', async () => {
    const started = Date.now();
    const first = await call(t, 'system.cpu_percent');
    const second = await call(t, 'system.cpu_percent', { interval: null });
    expect(Date.now() - started).toBeLessThan(1000);
    for (const r of [first, second]) {
      expect(typeof r.output).toBe('number');
      expect(r.output as number).toBeLessThanOrEqual(100);
    }
  });

  it('refuses a negative or too long interval, naming it', async () => {
    for (const interval of [-1, 61]) {
      const res = await call(t, 'system.cpu_percent', { interval });
      expect(res.code).toBe('INVALID_ARGUMENTS');
      expect(res.errors.join(' ')).toMatch(/interval/);
    }
  });

  it('cpu_percent stops waiting when the caller gives up', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = call(t, 'system.cpu_percent', { interval: 30 }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const res = await pending;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.errors).toEqual(['system.cpu_percent: interrupted after the caller gave up']);
  });

  it('cpu_times is /proc/stat in seconds (USER_HZ 100), between a reading before and after', async () => {
    const before = procStat();
    const res = await call(t, 'system.cpu_times');
    const after = procStat();
    const out = res.output as Record<string, number>;
    expect(Object.keys(out)).toEqual(FIELDS);
    FIELDS.forEach((field, i) => {
      expect(out[field]).toBeGreaterThanOrEqual(before.cpu[i]! / 100);
      expect(out[field]).toBeLessThanOrEqual(after.cpu[i]! / 100);
    });
    const per = (await call(t, 'system.cpu_times', { per_cpu: true })).output as unknown[];
    expect(per).toHaveLength(before.per.length);
  });

  it('cpu_times with percent gives each state a share that adds up to 100', async () => {
    await call(t, 'system.cpu_times', { percent: true });
    const busy = Date.now() + 150;
    while (Date.now() < busy); // let the CPU clock some ticks
    const out = (await call(t, 'system.cpu_times', { percent: true })).output as Record<
      string,
      number
    >;
    for (const v of Object.values(out)) expect(v >= 0 && v <= 100).toBe(true);
    const sum = FIELDS.filter((f) => !f.startsWith('guest')).reduce((s, f) => s + out[f]!, 0);
    expect(sum).toBeGreaterThan(98);
    expect(sum).toBeLessThan(102);
  });

  it('cpu_stats counts context switches as /proc/stat does', async () => {
    const before = procStat().ctxt;
    const out = (await call(t, 'system.cpu_stats')).output as Record<string, number>;
    const after = procStat().ctxt;
    expect(out.ctx_switches).toBeGreaterThanOrEqual(before);
    expect(out.ctx_switches).toBeLessThanOrEqual(after);
    expect(out.interrupts).toBeGreaterThan(0);
    expect(out.syscalls).toBe(0);
  });

  it('cpu_frequency is in MHz, one per CPU with per_cpu', async () => {
    const per = (await call(t, 'system.cpu_frequency', { per_cpu: true })).output as Array<
      Record<string, number>
    >;
    expect(per.length).toBeGreaterThan(0);
    for (const f of per) expect(f.current).toBeGreaterThan(0);
    const avg = (await call(t, 'system.cpu_frequency')).output as Record<string, number>;
    expect(avg.current).toBeGreaterThan(0);
    expect(Object.keys(avg).sort()).toEqual(['current', 'max', 'min']);
  });

  it('load_avg is /proc/loadavg, read just before or after', async () => {
    const read = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
    const before = read();
    const out = (await call(t, 'system.load_avg')).output as number[];
    const after = read();
    expect(out).toHaveLength(3);
    out.forEach((v, i) => expect([before[i], after[i]]).toContain(v));
  });

  it('boot_time is the btime of /proc/stat', async () => {
    expect((await call(t, 'system.boot_time')).output).toBe(procStat().btime);
  });
});

describe('system: memory', () => {
  it('mem_virtual follows /proc/meminfo with psutil formulas', async () => {
    const before = meminfo();
    const out = (await call(t, 'system.mem_virtual')).output as Record<string, number>;
    const total = before.MemTotal!;
    expect(out.total).toBe(total);
    const near = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(total * 0.03);
    near(out.available!, before.MemAvailable!);
    near(out.free!, before.MemFree!);
    near(out.cached!, before.Cached! + (before.SReclaimable ?? 0));
    near(out.shared!, before.Shmem!);
    expect(out.used).toBe(total - out.available!);
    expect(out.percent).toBeCloseTo(((total - out.available!) / total) * 100, 1);
    for (const key of ['active', 'inactive', 'buffers']) expect(out[key]).toBeGreaterThanOrEqual(0);
  });

  it('mem_swap follows /proc/meminfo and /proc/vmstat', async () => {
    const before = meminfo();
    const out = (await call(t, 'system.mem_swap')).output as Record<string, number>;
    expect(out.total).toBe(before.SwapTotal);
    expect(out.used).toBe(out.total! - out.free!);
    expect(out.percent).toBe(out.total ? Math.round((out.used! / out.total) * 1000) / 10 : 0);
    const pswpin = Number(/^pswpin (\d+)/m.exec(readFileSync('/proc/vmstat', 'utf8'))?.[1] ?? 0);
    expect(out.sin).toBeGreaterThanOrEqual(pswpin * 4096);
    expect(Object.keys(out).sort()).toEqual(['free', 'percent', 'sin', 'sout', 'total', 'used']);
  });
});

describe('system: disks', () => {
  it('disk_usage of / agrees with df', async () => {
    const { stdout } = await promisify(execFile)('df', ['-B1', '--output=size,used,avail', '/']);
    const [size, used, avail] = stdout.trim().split('\n')[1]!.trim().split(/\s+/).map(Number);
    const out = (await call(t, 'system.disk_usage', { path: '/' })).output as Record<
      string,
      number
    >;
    expect(out).toMatchObject({ path: '/', total: size });
    expect(Math.abs(out.used! - used!)).toBeLessThan(size! * 0.01);
    expect(Math.abs(out.free! - avail!)).toBeLessThan(size! * 0.01);
    expect(out.percent).toBeCloseTo((out.used! / (out.used! + out.free!)) * 100, 1);
  });

  it('disk_usage of a path that does not exist is NOT_FOUND naming it', async () => {
    const res = await call(t, 'system.disk_usage', { path: '/no/such/folder/here' });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.reason).toBe('NOT_FOUND');
    expect(res.errors.join(' ')).toContain(
      'system.disk_usage: /no/such/folder/here does not exist: give a path on a mounted file system',
    );
  });

  it('disk_usage refuses a relative path', async () => {
    const res = await call(t, 'system.disk_usage', { path: 'home' });
    expect(res.code).toBe('INVALID_ARGUMENTS');
    expect(res.errors.join(' ')).toMatch(/path.*must be an absolute path/);
  });

  it('disk_partitions are lines of /proc/self/mounts; all: every line', async () => {
    const mounts = readFileSync('/proc/self/mounts', 'utf8').trim().split('\n');
    type Part = { device: string; mountpoint: string; mount_point: string; fstype: string };
    const parts = (await call(t, 'system.disk_partitions')).output as Part[];
    expect(parts.length).toBeGreaterThan(0);
    for (const p of parts) {
      expect(p.mount_point).toBe(p.mountpoint);
      expect(
        mounts.some((l) =>
          l.startsWith(`${p.device} ${p.mountpoint.replace(/ /g, '\\040')} ${p.fstype} `),
        ),
      ).toBe(true);
    }
    const all = (await call(t, 'system.disk_partitions', { all: true })).output as unknown[];
    expect(all).toHaveLength(mounts.length);
    const usage = (await call(t, 'system.disk_usage')).output as Array<Record<string, unknown>>;
    expect(usage.map((u) => u.path).sort()).toEqual(parts.map((p) => p.mountpoint).sort());
  });
});
