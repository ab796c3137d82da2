import { defineAction, z } from '../api/index.ts';
import type { Bridge } from './bridge.ts';
import { getLights, withIds } from './bridge.ts';
import { resolveTargets, sendState, TARGET_PARAMS } from './targets.ts';
import type { Target } from './targets.ts';

// on, off, toggle, bri, sat, hue, xy: Platypush's names, arguments and output (the lights after
// the change, id → light).

async function setAll(
  bridge: Bridge,
  asked: {
    lights?: Array<string | number>;
    groups?: Array<string | number>;
    transitiontime?: number;
  },
  body: Record<string, unknown>,
  signal: AbortSignal,
) {
  const { targets } = await resolveTargets(bridge, asked, signal);
  const fade = asked.transitiontime === undefined ? {} : { transitiontime: asked.transitiontime };
  await sendState(bridge, targets, { ...body, ...fade }, signal);
  return withIds(await getLights(bridge, signal));
}

const result = z.record(z.string(), z.unknown()).describe('the lights after the change, by id');

const onOff = (name: 'on' | 'off', on: boolean) =>
  defineAction({
    name,
    summary: `Turns lights or groups ${name}.`,
    params: TARGET_PARAMS,
    result,
    run: (args, { state, signal }: { state: Bridge; signal: AbortSignal }) =>
      setAll(state, args, { on }, signal),
  });

const toggle = defineAction({
  name: 'toggle',
  summary: 'Turns off the lights or groups that are on, and on those that are off.',
  params: TARGET_PARAMS,
  result,
  run: async (args, { state, signal }: { state: Bridge; signal: AbortSignal }) => {
    const { targets, lights, groups } = await resolveTargets(state, args, signal);
    const isOn = (t: Target) =>
      t.kind === 'light'
        ? lights[t.id]?.state.on === true
        : t.id === '0'
          ? Object.values(lights).some((l) => l.state.on === true)
          : groups[t.id]?.state?.any_on === true;
    const on = targets.filter(isOn);
    const off = targets.filter((t) => !isOn(t));
    const fade = args.transitiontime === undefined ? {} : { transitiontime: args.transitiontime };
    if (on.length) await sendState(state, on, { on: false, ...fade }, signal);
    if (off.length) await sendState(state, off, { on: true, ...fade }, signal);
    return withIds(await getLights(state, signal));
  },
});

// Platypush takes 0-255 for bri and sat; the bridge 1-254 and 0-254: values are clamped.
const clamp = (min: number, max: number) => (v: number) => Math.min(max, Math.max(min, v));

const level = (
  name: 'bri' | 'sat' | 'hue',
  summary: string,
  value: z.ZodType<number>,
  toBridge: (v: number) => number,
) =>
  defineAction({
    name,
    summary,
    params: { value, ...TARGET_PARAMS },
    result,
    run: ({ value: v, ...targets }, { state, signal }: { state: Bridge; signal: AbortSignal }) =>
      setAll(state, targets, { [name]: toBridge(v) }, signal),
  });

const bri = level(
  'bri',
  'Sets the brightness of lights or groups.',
  z.number().int().min(0).max(255).describe('brightness, 0-255 (sent as 1-254, the bridge range)'),
  clamp(1, 254),
);
const sat = level(
  'sat',
  'Sets the saturation of lights or groups.',
  z.number().int().min(0).max(255).describe('saturation, 0-255 (sent as 0-254, the bridge range)'),
  clamp(0, 254),
);
const hue = level(
  'hue',
  'Sets the colour hue of lights or groups.',
  z
    .number()
    .int()
    .min(0)
    .max(65535)
    .describe('hue, 0-65535 (0 and 65535 red, 25500 green, 46920 blue)'),
  (v) => v,
);

const xy = defineAction({
  name: 'xy',
  summary: 'Sets the colour of lights or groups as CIE xy coordinates.',
  params: {
    value: z
      .tuple([z.number().min(0).max(1), z.number().min(0).max(1)])
      .describe('[x, y], each 0-1'),
    ...TARGET_PARAMS,
  },
  result,
  run: ({ value, ...targets }, { state, signal }: { state: Bridge; signal: AbortSignal }) =>
    setAll(state, targets, { xy: value }, signal),
});

/** The actions that change lights. */
export const controlActions = [onOff('on', true), onOff('off', false), toggle, bri, sat, hue, xy];
