import { startHueEmulator } from '../../../tools/hue-emulator/index.ts';
import type { HueEmulator } from '../../../tools/hue-emulator/index.ts';
import { serviceStatus } from '../../../src/control/commands.ts';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

export { startHueEmulator };
export type { HueEmulator };

/** The `light.hue:` section for an emulator, with short polls and timeouts for tests. */
export function hueSection(emu: HueEmulator, extra = '', pollSeconds = 0.2): string {
  return `light.hue:\n  bridge: ${emu.host}\n  poll_seconds: ${pollSeconds}\n  timeout_seconds: 1\n${extra}`;
}

/** A service with light.hue on this emulator (and `yaml` besides), paired if `paired`. */
export async function hueApp(
  emu: HueEmulator,
  opts: { paired?: boolean; extra?: string; yaml?: string; dir?: string; poll?: number } = {},
): Promise<TestApp> {
  const t = await makeApp(`${hueSection(emu, opts.extra, opts.poll)}${opts.yaml ?? ''}`, {
    ...(opts.dir ? { dir: opts.dir } : {}),
  });
  if (opts.paired) {
    emu.control.pressButton();
    const res = await call(t, 'light.hue.connect', { timeout_seconds: 2 });
    if (res.code) throw new Error(`pairing failed: ${res.errors.join('; ')}`);
  }
  return t;
}

/** What `pipit status` shows of the plugin's link (setStatus). */
export function link(t: TestApp): { connected: boolean; detail?: string } | undefined {
  return serviceStatus(t.service).plugins.find((p) => p.name === 'light.hue')?.link;
}
