import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureLog, makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { hueApp, hueSection, link, startHueEmulator } from './helpers.ts';
import type { HueEmulator } from './helpers.ts';

describe('light.hue pairing (light.hue.connect)', () => {
  let emu: HueEmulator;
  let t: TestApp | undefined;
  beforeEach(async () => {
    emu = await startHueEmulator();
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
    await emu.close();
  });

  it('answers UNAVAILABLE "not paired" to every action until paired', async () => {
    t = await hueApp(emu);
    for (const action of ['light.hue.on', 'light.hue.get_lights', 'light.hue.scene']) {
      const res = await call(t, action, action.endsWith('scene') ? { name: 'Relax' } : {});
      expect(res.code).toBe('UNAVAILABLE');
      expect(res.errors.join()).toContain(
        "not paired: press the bridge's button, then run light.hue.connect (or Settings → Integrations → Connect)",
      );
    }
    expect(link(t)).toMatchObject({ connected: false });
    expect((await call(t, 'light.hue.status')).output).toMatchObject({
      paired: false,
      connected: false,
    });
  });

  it('says to press the button when it was not pressed in time', async () => {
    t = await hueApp(emu);
    const started = Date.now();
    const res = await call(t, 'light.hue.connect', { timeout_seconds: 1 });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.errors.join()).toMatch(
      /link button of the bridge at 127\.0\.0\.1:\d+ was not pressed \(waited 1 s\): press the round button on the bridge, then run light\.hue\.connect again/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(emu.control.requests.filter((r) => r === 'POST /api').length).toBeGreaterThan(1);
    expect(emu.control.state.whitelist.size).toBe(0);
  });

  it('pairs once the button is pressed during the wait, and keeps the username out of the logs', async () => {
    const { log, lines } = captureLog('debug');
    t = await makeApp(hueSection(emu), { log });
    const pairing = call(t, 'light.hue.connect', { timeout_seconds: 5 });
    // Pressed while connect is retrying, as a user walking to the bridge does.
    await vi.waitFor(() => expect(emu.control.requests).toContain('POST /api'));
    emu.control.pressButton();
    const res = await pairing;
    expect(res.code).toBeUndefined();
    expect(res.output).toEqual({ paired: true, bridge: emu.host, already: false });
    const [username, devicetype] = [...emu.control.state.whitelist][0]!;
    expect(devicetype).toMatch(/^pipit#/);
    expect(JSON.stringify(lines)).not.toContain(username);
    expect(JSON.stringify(res.result)).not.toContain(username);
    await vi.waitFor(() => expect(link(t!)).toMatchObject({ connected: true }));
    expect((await call(t, 'light.hue.get_lights')).code).toBeUndefined();
  });

  it('stays paired across a restart of the service on the same workdir', async () => {
    const dir = tempDir();
    try {
      t = await hueApp(emu, { paired: true, dir: dir.dir });
      await t.close();
      t = await hueApp(emu, { dir: dir.dir });
      const res = await call(t, 'light.hue.get_lights');
      expect(res.code).toBeUndefined();
      expect(Object.keys(res.output as object)).toEqual(['1', '2', '3']);
      expect(emu.control.state.whitelist.size).toBe(1);
      // Already paired: connect answers at once, without the button.
      expect((await call(t, 'light.hue.connect', { timeout_seconds: 1 })).output).toMatchObject({
        already: true,
      });
    } finally {
      await t?.close();
      t = undefined;
      dir.cleanup();
    }
  });

  it('pairs again when the bridge forgot the username', async () => {
    t = await hueApp(emu, { paired: true });
    emu.control.state.whitelist.clear();
    const res = await call(t, 'light.hue.get_lights');
    expect(res.code).toBe('UNAVAILABLE');
    expect(res.errors.join()).toContain("does not accept Pipit's username any more");
    emu.control.pressButton();
    expect((await call(t, 'light.hue.connect', { timeout_seconds: 2 })).output).toMatchObject({
      paired: true,
      already: false,
    });
    expect((await call(t, 'light.hue.get_lights')).code).toBeUndefined();
  });
});
