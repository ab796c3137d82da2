import { didYouMean, PipitError, z } from '../api/index.ts';
import { systemAction } from './platform.ts';
import { readBattery, readFans, readTemperatures, toFahrenheit } from './sensors.ts';

const sensorParam = z
  .string()
  .min(1)
  .optional()
  .describe('one chip by name (coretemp, acpitz, k10temp...); none: all of them');

// One chip's entries, or NOT_FOUND naming those the host has.
function pick<T>(action: string, byChip: Record<string, T[]>, sensor: string): T[] {
  const found = byChip[sensor];
  if (found) return found;
  const names = Object.keys(byChip);
  throw new PipitError(
    'NOT_FOUND',
    `system.${action}: no sensor "${sensor}" (this host has: ${names.join(', ') || 'none'})${didYouMean(sensor, names)}`,
    { details: { sensor, sensors: names } },
  );
}

const temperatureShape = z.object({
  name: z.string().describe('the chip'),
  label: z.string(),
  current: z.number(),
  high: z.number().nullable(),
  critical: z.number().nullable(),
});

/**
 * system.sensors_temperature: the temperature sensors, by chip.
 *
 * @example
 * // → {coretemp: [{name: 'coretemp', label: 'Package id 0', current: 45, high: 80, critical: 100}]}
 * // {args: {sensor: 'coretemp'}} → [{name: 'coretemp', label: 'Package id 0', current: 45, ...}]
 */
export const sensorsTemperature = systemAction({
  name: 'sensors_temperature',
  summary:
    'Temperatures (°C, or °F) by chip, from /sys/class/hwmon (or the thermal zones): {} when none.',
  params: {
    sensor: sensorParam,
    fahrenheit: z.boolean().default(false).describe('degrees Fahrenheit instead of Celsius'),
  },
  result: z.union([z.record(z.string(), z.array(temperatureShape)), z.array(temperatureShape)]),
  run: async ({ sensor, fahrenheit: inF }, { state }) => {
    const celsius = await readTemperatures(state.roots);
    const all = inF ? toFahrenheit(celsius) : celsius;
    return sensor ? pick('sensors_temperature', all, sensor) : all;
  },
});

const fanShape = z.object({ name: z.string(), label: z.string(), current: z.number() });

/**
 * system.sensors_fan: the fans' speeds, by chip.
 *
 * @example
 * // → {thinkpad: [{name: 'thinkpad', label: '', current: 2280}]}
 */
export const sensorsFan = systemAction({
  name: 'sensors_fan',
  summary: 'Fan speeds (RPM) by chip, from /sys/class/hwmon: {} when none.',
  params: { sensor: sensorParam },
  result: z.union([z.record(z.string(), z.array(fanShape)), z.array(fanShape)]),
  run: async ({ sensor }, { state }) => {
    const all = await readFans(state.roots);
    return sensor ? pick('sensors_fan', all, sensor) : all;
  },
});

/**
 * system.sensors_battery: the battery's charge, or null without one.
 *
 * @example
 * // → {percent: 87.5, secs_left: 9000, power_plugged: false}
 */
export const sensorsBattery = systemAction({
  name: 'sensors_battery',
  summary:
    'The battery: charge in percent, seconds left, whether on mains power; null without one.',
  params: {},
  result: z
    .object({
      percent: z.number(),
      secs_left: z.number().nullable().describe('null while plugged in or unknown'),
      power_plugged: z.boolean().nullable(),
    })
    .nullable(),
  run: (_args, { state }) => readBattery(state.roots),
});

export const SENSOR_ACTIONS = [sensorsTemperature, sensorsFan, sensorsBattery];
