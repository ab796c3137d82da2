import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PipitError } from '../../../src/core/errors.ts';
import { busyPercent, timesPercent } from '../../../src/plugins/system/cpu.ts';
import { readPartitions } from '../../../src/plugins/system/disks.ts';
import { requireLinux } from '../../../src/plugins/system/platform.ts';
import { terminalOf } from '../../../src/plugins/system/processes.ts';
import {
  readBattery,
  readFans,
  readTemperatures,
  toFahrenheit,
} from '../../../src/plugins/system/sensors.ts';
import { makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

// What the system plugin reads from /sys and /proc on machines this one is not (sensors, a
// battery, odd mounts), from real fixture files in a temporary folder; and its refusal off Linux.

let root: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  root?.cleanup();
  root = undefined;
});

// Writes files (path → content) under a fresh folder; returns Roots pointing at it.
function fixture(files: Record<string, string>) {
  root = tempDir('pipit-system-');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root.dir, path)), { recursive: true });
    writeFileSync(join(root.dir, path), content);
  }
  return { proc: join(root.dir, 'proc'), sys: join(root.dir, 'sys'), etc: join(root.dir, 'etc') };
}

describe('system: temperature and fan sensors', () => {
  it('reads hwmon chips by name, with labels and thresholds in °C', async () => {
    const roots = fixture({
      'sys/class/hwmon/hwmon0/name': 'coretemp\n',
      'sys/class/hwmon/hwmon0/temp1_input': '45000\n',
      'sys/class/hwmon/hwmon0/temp1_label': 'Package id 0\n',
      'sys/class/hwmon/hwmon0/temp1_max': '80000\n',
      'sys/class/hwmon/hwmon0/temp1_crit': '100000\n',
      'sys/class/hwmon/hwmon0/temp2_input': '47500\n',
      'sys/class/hwmon/hwmon1/name': 'nvme\n',
      'sys/class/hwmon/hwmon1/device/temp1_input': '38850\n',
      'sys/class/hwmon/hwmon2/name': 'broken\n',
      'sys/class/hwmon/hwmon2/temp1_input': 'not a number\n',
      'sys/class/hwmon/hwmon2/fan1_input': '2280\n',
      'sys/class/hwmon/hwmon2/fan1_label': 'CPU fan\n',
      'sys/class/thermal/thermal_zone0/type': 'acpitz\n', // hwmon wins: zones are not read
      'sys/class/thermal/thermal_zone0/temp': '27800\n',
    });
    expect(await readTemperatures(roots)).toEqual({
      coretemp: [
        { name: 'coretemp', label: 'Package id 0', current: 45, high: 80, critical: 100 },
        { name: 'coretemp', label: '', current: 47.5, high: null, critical: null },
      ],
      nvme: [{ name: 'nvme', label: '', current: 38.85, high: null, critical: null }],
    });
    expect(await readFans(roots)).toEqual({
      broken: [{ name: 'broken', label: 'CPU fan', current: 2280 }],
    });
  });

  it('falls back to the thermal zones and their trip points', async () => {
    const roots = fixture({
      'sys/class/thermal/thermal_zone0/type': 'acpitz\n',
      'sys/class/thermal/thermal_zone0/temp': '27800\n',
      'sys/class/thermal/thermal_zone0/trip_point_0_type': 'critical\n',
      'sys/class/thermal/thermal_zone0/trip_point_0_temp': '105000\n',
      'sys/class/thermal/thermal_zone0/trip_point_1_type': 'passive\n',
      'sys/class/thermal/thermal_zone0/trip_point_1_temp': '95000\n',
      'sys/class/thermal/cooling_device0/type': 'Processor\n',
    });
    const temps = await readTemperatures(roots);
    expect(temps).toEqual({
      acpitz: [{ name: 'acpitz', label: '', current: 27.8, high: null, critical: 105 }],
    });
    expect(toFahrenheit(temps).acpitz![0]).toMatchObject({ current: 82.04, critical: 221 });
  });

  it('is empty on a machine without sensors', async () => {
    const roots = fixture({ 'sys/class/net/lo/mtu': '65536\n' });
    expect(await readTemperatures(roots)).toEqual({});
    expect(await readFans(roots)).toEqual({});
  });
});

describe('system: battery', () => {
  it('computes the charge and the time left from energy and power, off mains', async () => {
    const roots = fixture({
      'sys/class/power_supply/BAT0/energy_now': '35000000\n',
      'sys/class/power_supply/BAT0/energy_full': '40000000\n',
      'sys/class/power_supply/BAT0/power_now': '14000000\n',
      'sys/class/power_supply/BAT0/status': 'Discharging\n',
    });
    // 35 Wh at 14 W: 2.5 h.
    expect(await readBattery(roots)).toEqual({
      percent: 87.5,
      secs_left: 9000,
      power_plugged: false,
    });
  });

  it('reads capacity alone, and says plugged in (no time left) from AC/online', async () => {
    const roots = fixture({
      'sys/class/power_supply/BAT1/capacity': '64\n',
      'sys/class/power_supply/AC/online': '1\n',
    });
    expect(await readBattery(roots)).toEqual({ percent: 64, secs_left: null, power_plugged: true });
  });

  it('is null without a battery (mains only, or no power_supply at all)', async () => {
    expect(await readBattery(fixture({ 'sys/class/power_supply/AC/online': '1\n' }))).toBeNull();
    expect(await readBattery(fixture({}))).toBeNull();
  });
});

describe('system: partitions', () => {
  it('keeps disk-backed mounts, decodes escaped paths and masks passwords in options', async () => {
    const roots = fixture({
      'proc/filesystems': 'nodev\tsysfs\nnodev\tproc\n\text4\n\tvfat\nnodev\tzfs\nnodev\tfuse\n',
      'proc/self/mounts': [
        'proc /proc proc rw,nosuid 0 0',
        '/dev/sda1 / ext4 rw,relatime 0 0',
        '/dev/sda2 /mnt/my\\040photos vfat rw,uid=1000 0 0',
        'tank/home /home zfs rw,xattr 0 0',
        'none /srv/x ext4 rw 0 0',
        'box /mnt/box fuse rw,password=hunter2,user_id=0 0 0',
        '',
      ].join('\n'),
    });
    const disks = await readPartitions(roots, false);
    expect(disks.map((d) => [d.device, d.mountpoint, d.fstype])).toEqual([
      ['/dev/sda1', '/', 'ext4'],
      ['/dev/sda2', '/mnt/my photos', 'vfat'],
      ['tank/home', '/home', 'zfs'],
    ]);
    const all = await readPartitions(roots, true);
    expect(all).toHaveLength(6);
    expect(all.find((d) => d.fstype === 'fuse')!.opts).toBe('rw,password=[redacted],user_id=0');
    expect(all.find((d) => d.mountpoint === '/srv/x')!.device).toBe('');
  });
});

describe('system: CPU arithmetic', () => {
  it('counts iowait as idle and leaves guest time out of the total, as psutil', () => {
    // user 30 (of which guest 10), system 10, idle 40, iowait 20: busy 40 of 100.
    const before = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    const after = [30, 0, 10, 40, 20, 0, 0, 0, 10, 0];
    expect(busyPercent(before, after)).toBe(40);
    expect(timesPercent(before, after)).toMatchObject({
      user: 30,
      idle: 40,
      iowait: 20,
      guest: 10,
    });
    expect(busyPercent(after, after)).toBe(0);
  });
});

describe('system: terminals', () => {
  it('names a process’s terminal from its tty number', () => {
    expect(terminalOf(0)).toBeNull();
    expect(terminalOf((136 << 8) | 1)).toBe('/dev/pts/1');
    expect(terminalOf((4 << 8) | 2)).toBe('/dev/tty2');
    expect(terminalOf((4 << 8) | 65)).toBe('/dev/ttyS1');
  });
});

describe('system off Linux', () => {
  it('refuses every action with UNAVAILABLE, naming the platform', () => {
    for (const platform of ['darwin', 'win32', 'freebsd']) {
      let caught: unknown;
      try {
        requireLinux('mem_virtual', platform);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(PipitError);
      expect(caught).toMatchObject({
        code: 'UNAVAILABLE',
        message: `system.mem_virtual is not supported on ${platform}: it reads Linux's /proc`,
      });
    }
    expect(() => requireLinux('mem_virtual', 'linux')).not.toThrow();
  });
});

describe('system sensors on this host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp('');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers {} and null where /sys has no sensors and no battery', async () => {
    const temps = (await call(t, 'system.sensors_temperature')).output as Record<string, unknown[]>;
    const hasHwmon = existsSync('/sys/class/hwmon') && readdirSync('/sys/class/hwmon').length > 0;
    const hasZones =
      existsSync('/sys/class/thermal') &&
      readdirSync('/sys/class/thermal').some((n) => n.startsWith('thermal_zone'));
    if (!hasHwmon && !hasZones) expect(temps).toEqual({});
    else
      for (const list of Object.values(temps))
        for (const s of list) expect(s).toHaveProperty('current');
    const supplies = existsSync('/sys/class/power_supply')
      ? readdirSync('/sys/class/power_supply')
      : [];
    if (!supplies.some((n) => n.startsWith('BAT') || /battery/i.test(n))) {
      // No answer (null), which Pipit, as Platypush, sends as {success: true}.
      expect((await call(t, 'system.sensors_battery')).output).toEqual({ success: true });
    }
    const unknown = await call(t, 'system.sensors_temperature', { sensor: 'no-such-chip' });
    expect(unknown.reason).toBe('NOT_FOUND');
    expect(unknown.errors.join(' ')).toContain('no sensor "no-such-chip"');
  });
});
