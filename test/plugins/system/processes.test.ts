import { readdirSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

// system.processes (refused unless allowed: command lines hold secrets) and pid_exists, checked
// against the test's own process in /proc; and the system: section's checks.

const ownName = () => {
  const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
  return stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
};

let allowed: TestApp;
let plain: TestApp;
beforeAll(async () => {
  [allowed, plain] = await Promise.all([
    makeApp('system:\n  allow_processes: true\n'),
    makeApp(''),
  ]);
});
afterAll(async () => {
  await Promise.all([allowed?.close(), plain?.close()]);
});

describe('system.processes', () => {
  it('is refused without allow_processes, saying how to allow it', async () => {
    const res = await call(plain, 'system.processes', { filter: ownName() });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.reason).toBe('FORBIDDEN');
    expect(res.errors.join(' ')).toContain('Add "allow_processes: true" to the "system:" section');
  });

  it('finds the test’s own process by name, with /proc’s facts', async () => {
    const name = ownName();
    const started = Date.now() - process.uptime() * 1000;
    const res = await call(allowed, 'system.processes', { filter: name.slice(0, 4) });
    expect(res.errors).toEqual([]);
    const list = res.output as Array<Record<string, unknown>>;
    for (const p of list) expect(p.name as string).toContain(name.slice(0, 4));
    const me = list.find((p) => p.pid === process.pid);
    expect(me).toBeDefined();
    const cmdline = readFileSync(`/proc/${process.pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
    expect(me).toMatchObject({
      name,
      cmdline,
      ppid: process.ppid,
      username: userInfo().username,
      exe: process.execPath,
    });
    expect(['running', 'sleeping']).toContain(me!.status);
    expect(Math.abs(Date.parse(me!.started as string) - started)).toBeLessThan(2000);
    expect(me!.mem_rss as number).toBeGreaterThan(0);
    expect(me!.mem_vms as number).toBeGreaterThan(me!.mem_rss as number);
    expect(me!.cpu_user_time as number).toBeGreaterThan(0);
    expect(me!.mem_percent as number).toBeGreaterThan(0);
    const parent = list.find((p) => p.pid === process.ppid);
    if (parent) expect(parent.children).toContain(process.pid);
  });

  it('answers every process without a filter, and none for a name no process has', async () => {
    const all = (await call(allowed, 'system.processes')).output as Array<{ pid: number }>;
    const pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
    // Processes come and go between the two readings (other tests start servers): allow some.
    expect(Math.abs(all.length - pids)).toBeLessThan(Math.max(10, pids * 0.2));
    expect(all.some((p) => p.pid === 1)).toBe(true);
    expect(
      (await call(allowed, 'system.processes', { filter: 'no-such-process-name' })).output,
    ).toEqual([]);
  });
});

describe('system.pid_exists', () => {
  it('says true for this process, false for a thread id and a pid beyond pid_max', async () => {
    expect((await call(plain, 'system.pid_exists', { pid: process.pid })).output).toBe(true);
    const thread = readdirSync(`/proc/${process.pid}/task`)
      .map(Number)
      .find((tid) => tid !== process.pid);
    if (thread)
      expect((await call(plain, 'system.pid_exists', { pid: thread })).output).toBe(false);
    expect((await call(plain, 'system.pid_exists', { pid: 4_194_305 })).output).toBe(false);
    expect((await call(plain, 'system.pid_exists', { pid: -3 })).code).toBe('INVALID_ARGUMENTS');
  });
});

describe('the system: section', () => {
  it('accepts Platypush’s poll_interval, and refuses an allow_processes that is not a boolean', async () => {
    const platypush = await makeApp('system:\n  poll_interval: 60\n');
    await platypush.close();
    await expect(makeApp('system:\n  allow_processes: "yes"\n')).rejects.toThrow(
      /system\.allow_processes/,
    );
  });
});
