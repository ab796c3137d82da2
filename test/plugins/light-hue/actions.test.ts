import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { hueApp, startHueEmulator } from './helpers.ts';
import type { HueEmulator } from './helpers.ts';

describe('light.hue actions against the emulated bridge', () => {
  let emu: HueEmulator;
  let t: TestApp;
  const light = (id: string) => emu.control.state.lights.get(id)!.state;
  beforeAll(async () => {
    emu = await startHueEmulator();
    t = await hueApp(emu, { paired: true, extra: '  lights: [Hue Lamp 1]\n' });
  });
  afterAll(async () => {
    await t.close();
    await emu.close();
  });

  it('get_lights, get_groups, get_scenes answer by id with the id inside (Platypush shape)', async () => {
    const lights = (await call(t, 'light.hue.get_lights')).output as Record<string, object>;
    expect(lights['3']).toMatchObject({ id: '3', name: 'Kitchen Ceiling', state: { on: true } });
    const groups = (await call(t, 'light.hue.get_groups')).output as Record<string, object>;
    expect(groups['1']).toMatchObject({ id: '1', name: 'Living Room', lights: ['1', '2'] });
    const scenes = (await call(t, 'light.hue.get_scenes')).output as Record<string, object>;
    expect(Object.values(scenes).map((s) => (s as { name: string }).name)).toEqual([
      'Relax',
      'Bright',
    ]);
  });

  it('on and off take lights by name or id and groups by name; the default is the configured lights', async () => {
    expect((await call(t, 'light.hue.on', { lights: ['Hue Lamp 2'] })).code).toBeUndefined();
    expect(light('2').on).toBe(true);
    const off = await call(t, 'light.hue.off', { lights: [2, '3'] });
    expect(off.code).toBeUndefined();
    expect([light('2').on, light('3').on]).toEqual([false, false]);
    expect((off.output as Record<string, { state: { on: boolean } }>)['3']!.state.on).toBe(false);
    await call(t, 'light.hue.on', { groups: ['Living Room'] });
    expect([light('1').on, light('2').on]).toEqual([true, true]);
    // No lights and no groups: the configured `lights: [Hue Lamp 1]` only.
    await call(t, 'light.hue.off');
    expect([light('1').on, light('2').on]).toEqual([false, true]);
  });

  it('toggle turns off what is on and on what is off', async () => {
    emu.control.setLight('1', { on: true });
    emu.control.setLight('2', { on: false });
    expect((await call(t, 'light.hue.toggle', { lights: ['Hue Lamp 1', 'Hue Lamp 2'] })).code).toBe(
      undefined,
    );
    expect([light('1').on, light('2').on]).toEqual([false, true]);
    await call(t, 'light.hue.toggle', { groups: ['Kitchen'] });
    expect(light('3').on).toBe(true);
  });

  it('bri, sat, hue and xy set the state, within the bridge ranges', async () => {
    await call(t, 'light.hue.on', { lights: ['Hue Lamp 1'] });
    expect((await call(t, 'light.hue.bri', { value: 255, lights: ['Hue Lamp 1'] })).code).toBe(
      undefined,
    );
    expect(light('1').bri).toBe(254);
    await call(t, 'light.hue.bri', { value: 0, lights: ['Hue Lamp 1'] });
    expect(light('1').bri).toBe(1);
    await call(t, 'light.hue.sat', { value: 200, lights: ['Hue Lamp 1'] });
    await call(t, 'light.hue.hue', { value: 46920, lights: ['Hue Lamp 1'] });
    expect(light('1')).toMatchObject({ sat: 200, hue: 46920, colormode: 'hs' });
    await call(t, 'light.hue.xy', { value: [0.1862, 0.6878], lights: ['Hue Lamp 1'] });
    expect(light('1')).toMatchObject({ xy: [0.1862, 0.6878], colormode: 'xy' });
    await call(t, 'light.hue.bri', { value: 50, groups: ['Living Room'], transitiontime: 150 });
    expect(light('2').bri).toBe(50);
    expect(emu.control.bodies.at(-1)).toEqual({ bri: 50, transitiontime: 150 });
  });

  it('refuses values out of range before calling the bridge, naming the argument', async () => {
    const res = await call(t, 'light.hue.hue', { value: 70000 });
    expect(res.code).toBe('INVALID_ARGUMENTS');
    expect(res.errors.join()).toContain('value');
    expect((await call(t, 'light.hue.xy', { value: [1.5, 0] })).code).toBe('INVALID_ARGUMENTS');
  });

  it('says which light is off when the bridge refuses a change to it', async () => {
    emu.control.setLight('2', { on: false });
    const res = await call(t, 'light.hue.bri', { value: 100, lights: ['Hue Lamp 2'] });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.errors.join()).toContain('light "Hue Lamp 2" (id 2) is off');
  });

  it('scene recalls a scene by name, in its own room or the group given', async () => {
    expect((await call(t, 'light.hue.scene', { name: 'Relax' })).code).toBeUndefined();
    expect(light('2')).toMatchObject({ on: true, bri: 144, ct: 447 });
    await call(t, 'light.hue.off', { groups: ['Kitchen'] });
    expect((await call(t, 'light.hue.scene', { name: 'Bright', group: 'Kitchen' })).code).toBe(
      undefined,
    );
    expect(light('3')).toMatchObject({ on: true, bri: 254 });
    const res = await call(t, 'light.hue.scene', { name: 'Disco' });
    expect(res.reason).toBe('NOT_FOUND');
    expect(res.errors.join()).toContain('no scene "Disco" on the bridge');
  });

  it('names an unknown light or group, listing the known ones', async () => {
    const res = await call(t, 'light.hue.on', { lights: ['Garage'] });
    expect(res.reason).toBe('NOT_FOUND');
    expect(res.errors.join()).toContain('no light "Garage" on the bridge');
    expect(res.errors.join()).toContain('"Kitchen Ceiling"');
    expect((await call(t, 'light.hue.on', { groups: ['Attic'] })).reason).toBe('NOT_FOUND');
  });

  it('status says paired and connected, with the lights', async () => {
    expect((await call(t, 'light.hue.status')).output).toMatchObject({
      bridge: emu.host,
      paired: true,
      connected: true,
      lights: expect.arrayContaining([expect.objectContaining({ id: '1', name: 'Hue Lamp 1' })]),
    });
  });
});
