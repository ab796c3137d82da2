import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readInt, readOptional } from './host.ts';
import type { Roots } from './host.ts';

/** One temperature sensor, psutil's fields (°C) and the chip it belongs to. */
export interface Temperature {
  name: string;
  label: string;
  current: number;
  high: number | null;
  critical: number | null;
}

/** One fan, psutil's fields (RPM) and the chip it belongs to. */
export interface Fan {
  name: string;
  label: string;
  current: number;
}

const byNumber = (prefix: string) => (a: string, b: string) =>
  Number(a.slice(prefix.length)) - Number(b.slice(prefix.length));

async function list(root: string, dir: string): Promise<string[]> {
  return readdir(join(root, dir)).catch(() => [] as string[]);
}

// Each hwmon chip folder, and the sensor files of one kind (temp, fan) in it: some drivers keep
// them in a device/ subfolder (psutil issue 971).
async function hwmonSensors(
  sys: string,
  kind: 'temp' | 'fan',
): Promise<{ chip: string; base: string }[]> {
  const out: { chip: string; base: string }[] = [];
  const chips = (await list(sys, 'class/hwmon')).filter((n) => /^hwmon\d+$/.test(n));
  for (const hwmon of chips.sort(byNumber('hwmon'))) {
    for (const dir of [`class/hwmon/${hwmon}`, `class/hwmon/${hwmon}/device`]) {
      const pattern = new RegExp(`^(${kind}\\d+)_input$`);
      const bases = (await list(sys, dir)).flatMap((f) => pattern.exec(f)?.[1] ?? []);
      for (const base of bases.sort(byNumber(kind)))
        out.push({ chip: hwmon, base: `${dir}/${base}` });
    }
  }
  return out;
}

const celsius = (milli: number | undefined) => (milli === undefined ? null : milli / 1000);

/**
 * The temperature sensors by chip name, as psutil's sensors_temperatures: hwmon's temp*_input
 * files, or — when there are none — the thermal zones.
 *
 * @example
 * await readTemperatures(HOST_ROOTS); // {coretemp: [{name: 'coretemp', label: 'Core 0', current: 45, high: 80, critical: 100}]}
 */
export async function readTemperatures(roots: Roots): Promise<Record<string, Temperature[]>> {
  const out: Record<string, Temperature[]> = {};
  const add = (t: Temperature) => (out[t.name] ??= []).push(t);
  const sensors = await hwmonSensors(roots.sys, 'temp');
  for (const { chip, base } of sensors) {
    const current = await readInt(roots.sys, `${base}_input`);
    const name = (await readOptional(roots.sys, `class/hwmon/${chip}/name`))?.trim();
    // hwmon is "a stinky broken mess" (psutil): an entry that cannot be read is left out.
    if (current === undefined || !name) continue;
    add({
      name,
      label: (await readOptional(roots.sys, `${base}_label`))?.trim() ?? '',
      current: current / 1000,
      high: celsius(await readInt(roots.sys, `${base}_max`)),
      critical: celsius(await readInt(roots.sys, `${base}_crit`)),
    });
  }
  if (sensors.length > 0) return out;
  const zones = (await list(roots.sys, 'class/thermal')).filter((n) => /^thermal_zone\d+$/.test(n));
  for (const zone of zones.sort(byNumber('thermal_zone'))) {
    const dir = `class/thermal/${zone}`;
    const current = await readInt(roots.sys, `${dir}/temp`);
    const name = (await readOptional(roots.sys, `${dir}/type`))?.trim();
    if (current === undefined || !name) continue;
    const trips: Record<string, number | null> = {};
    for (const file of await list(roots.sys, dir)) {
      const trip = /^(trip_point_\d+)_type$/.exec(file)?.[1];
      if (!trip) continue;
      const type = (await readOptional(roots.sys, `${dir}/${file}`))?.trim() ?? '';
      if (type === 'high' || type === 'critical')
        trips[type] = celsius(await readInt(roots.sys, `${dir}/${trip}_temp`));
    }
    add({
      name,
      label: '',
      current: current / 1000,
      high: trips.high ?? null,
      critical: trips.critical ?? null,
    });
  }
  return out;
}

const toF = (c: number | null) => (c === null ? null : Math.round(((c * 9) / 5 + 32) * 100) / 100);

/**
 * The same temperatures in degrees Fahrenheit (to the hundredth), as psutil's fahrenheit=True.
 *
 * @example
 * toFahrenheit({ acpitz: [{ name: 'acpitz', label: '', current: 100, high: null, critical: null }] });
 * // {acpitz: [{..., current: 212, ...}]}
 */
export function toFahrenheit(temps: Record<string, Temperature[]>): Record<string, Temperature[]> {
  return Object.fromEntries(
    Object.entries(temps).map(([chip, list]) => [
      chip,
      list.map((t) => ({
        ...t,
        current: toF(t.current)!,
        high: toF(t.high),
        critical: toF(t.critical),
      })),
    ]),
  );
}

/**
 * The fans by chip name, as psutil's sensors_fans (hwmon's fan*_input, in RPM).
 *
 * @example
 * await readFans(HOST_ROOTS); // {thinkpad: [{name: 'thinkpad', label: '', current: 2280}]}
 */
export async function readFans(roots: Roots): Promise<Record<string, Fan[]>> {
  const out: Record<string, Fan[]> = {};
  for (const { chip, base } of await hwmonSensors(roots.sys, 'fan')) {
    const current = await readInt(roots.sys, `${base}_input`);
    const name = (await readOptional(roots.sys, `class/hwmon/${chip}/name`))?.trim();
    if (current === undefined || !name) continue;
    const label = (await readOptional(roots.sys, `${base}_label`))?.trim() ?? '';
    (out[name] ??= []).push({ name, label, current });
  }
  return out;
}

/** Platypush's sensors_battery answer. */
export interface Battery {
  percent: number;
  /** Seconds until empty; null while plugged in or when the kernel does not say. */
  secs_left: number | null;
  power_plugged: boolean | null;
}

/**
 * The first battery of /sys/class/power_supply (BAT0, or a name with "battery"), psutil's way;
 * null when the host has none.
 *
 * @example
 * await readBattery(HOST_ROOTS); // {percent: 87.5, secs_left: 9000, power_plugged: false}
 */
export async function readBattery(roots: Roots): Promise<Battery | null> {
  const supplies = await list(roots.sys, 'class/power_supply');
  const bats = supplies.filter((n) => n.startsWith('BAT') || n.toLowerCase().includes('battery'));
  if (bats.length === 0) return null;
  const dir = `class/power_supply/${bats.sort()[0]}`;
  const first = async (...files: string[]) => {
    for (const file of files) {
      const value = await readInt(roots.sys, file.includes('/') ? file : `${dir}/${file}`);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const energyNow = await first('energy_now', 'charge_now');
  const powerNow = await first('power_now', 'current_now');
  const energyFull = await first('energy_full', 'charge_full');
  const toEmpty = await first('time_to_empty_now');
  let percent: number;
  if (energyNow !== undefined && energyFull !== undefined)
    percent = energyFull > 0 ? (100 * energyNow) / energyFull : 0;
  else {
    const capacity = await readInt(roots.sys, `${dir}/capacity`);
    if (capacity === undefined) return null;
    percent = capacity;
  }
  let plugged: boolean | null = null;
  const online = await first('class/power_supply/AC0/online', 'class/power_supply/AC/online');
  if (online !== undefined) plugged = online === 1;
  else {
    const status = (await readOptional(roots.sys, `${dir}/status`))?.trim().toLowerCase();
    if (status === 'discharging') plugged = false;
    else if (status === 'charging' || status === 'full') plugged = true;
  }
  let secs: number | null = null;
  if (!plugged) {
    if (energyNow !== undefined && powerNow)
      secs = Math.trunc((energyNow / Math.abs(powerNow)) * 3600);
    else if (toEmpty !== undefined && toEmpty >= 0) secs = toEmpty * 60;
  }
  return { percent, secs_left: secs, power_plugged: plugged };
}
