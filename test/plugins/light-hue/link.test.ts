import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { hueApp, link, startHueEmulator } from './helpers.ts';
import type { HueEmulator } from './helpers.ts';

// What changes behind Pipit's back: lights changed from the Hue app, removed, a hung bridge, a
// bridge that restarts.

const HOOK = `
event.hook.HueLampChanged:
  if:
    type: LightStatusChangeEvent
    light_name: Hue Lamp 2
  then:
    - action: variable.set
      args:
        lamp2_bri: \${bri}
        lamp2_id: \${light_id}
# A Platypush hook, by Platypush's full name of the kind: it matches unchanged.
event.hook.PlatypushLamp:
  if:
    type: platypush.message.event.light.LightStatusChangeEvent
    light_name: Hue Lamp 2
  then:
    - action: variable.set
      args:
        platypush_bri: \${bri}
`;

describe('light.hue link to the bridge', () => {
  let emu: HueEmulator;
  let t: TestApp;
  beforeEach(async () => {
    emu = await startHueEmulator();
  });
  afterEach(async () => {
    await t?.close();
    await emu.close();
  });

  it('raises LightStatusChangeEvent for a light changed behind its back, reaching a hook', async () => {
    t = await hueApp(emu, { paired: true, yaml: HOOK });
    // A first read is the baseline: wait for it before changing anything.
    await vi.waitFor(() => expect(link(t)).toMatchObject({ connected: true }));
    const reads = emu.control.requests.filter((r) => r.endsWith('/lights')).length;
    await vi.waitFor(() =>
      expect(emu.control.requests.filter((r) => r.endsWith('/lights')).length).toBeGreaterThan(
        reads,
      ),
    );
    emu.control.setLight('2', { on: true, bri: 77 });
    await vi.waitFor(
      async () =>
        expect((await call(t, 'variable.get', { name: 'lamp2_bri' })).output).toMatchObject({
          lamp2_bri: 77,
        }),
      { timeout: 5000 },
    );
    expect((await call(t, 'variable.get', { name: 'lamp2_id' })).output).toMatchObject({
      lamp2_id: '2',
    });
    await vi.waitFor(async () =>
      expect((await call(t, 'variable.get', { name: 'platypush_bri' })).output).toMatchObject({
        platypush_bri: 77,
      }),
    );
  });

  it('names a light that disappeared from the bridge', async () => {
    t = await hueApp(emu, { paired: true });
    emu.control.removeLight('2');
    const res = await call(t, 'light.hue.on', { lights: ['Hue Lamp 2'] });
    expect(res.reason).toBe('NOT_FOUND');
    expect(res.errors.join()).toContain('no light "Hue Lamp 2" on the bridge');
    // Removed between the read of the lights and the change: the bridge's "not available".
    emu.control.beforeAnswer = (method, path) => {
      if (method === 'PUT' && path.endsWith('/lights/3/state')) emu.control.removeLight('3');
    };
    const gone = await call(t, 'light.hue.off', { lights: ['Kitchen Ceiling'] });
    expect(gone.reason).toBe('NOT_FOUND');
    expect(gone.errors.join()).toContain(
      'light "Kitchen Ceiling" (id 3) is not on the bridge any more',
    );
  });

  it('fails with TIMEOUT when the bridge does not answer, then recovers', async () => {
    t = await hueApp(emu, { paired: true, poll: 60 });
    emu.control.stall(true);
    const started = Date.now();
    const res = await call(t, 'light.hue.get_lights');
    expect(res.reason).toBe('TIMEOUT');
    expect(res.errors.join()).toMatch(/did not answer GET \/api\/<username>\/lights within 1 s/);
    expect(Date.now() - started).toBeLessThan(2500);
    // While the bridge is marked down, calls fail fast saying when it is tried again.
    const fast = await call(t, 'light.hue.on');
    expect(fast.code).toBe('UNAVAILABLE');
    expect(fast.errors.join()).toMatch(/is not connected: .*retrying in \d+ s/);
    expect(link(t)).toMatchObject({ connected: false });
    emu.control.stall(false);
    await vi.waitFor(
      async () => expect((await call(t, 'light.hue.get_lights')).code).toBeUndefined(),
      {
        timeout: 5000,
        interval: 200,
      },
    );
  });

  it('reconnects after the bridge restarts: actions work again and status says connected', async () => {
    t = await hueApp(emu, { paired: true });
    await vi.waitFor(() => expect(link(t)).toMatchObject({ connected: true }));
    await emu.stop();
    await vi.waitFor(() => expect(link(t)).toMatchObject({ connected: false }));
    expect(link(t)!.detail).toMatch(/not connected: ECONNREFUSED/);
    const down = await call(t, 'light.hue.on', { lights: ['Hue Lamp 2'] });
    expect(down.code).toBe('UNAVAILABLE');
    expect((await call(t, 'light.hue.status')).output).toMatchObject({ connected: false });
    await emu.start();
    await vi.waitFor(() => expect(link(t)).toMatchObject({ connected: true }), { timeout: 5000 });
    expect((await call(t, 'light.hue.on', { lights: ['Hue Lamp 2'] })).code).toBeUndefined();
    expect(emu.control.state.lights.get('2')!.state.on).toBe(true);
    expect((await call(t, 'light.hue.status')).output).toMatchObject({
      paired: true,
      connected: true,
    });
  });
});
