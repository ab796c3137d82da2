import { afterEach, beforeEach } from 'vitest';
import { serviceStatus } from '../../../src/control/commands.ts';
import type { PluginDef } from '../../../src/core/action.ts';
import type { Logger } from '../../../src/core/logger.ts';
import { builtinPlugins } from '../../../src/plugins/index.ts';
import { startTelegramEmulator } from '../../../tools/telegram-emulator/index.ts';
import type { TelegramEmulator } from '../../../tools/telegram-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { makeApp } from '../../helpers/service.ts';

export { startTelegramEmulator };
export type { TelegramEmulator };

/** Pipit's plugins, chat.telegram among them. */
export const plugins: readonly PluginDef[] = builtinPlugins;

/** Settings of the tests: short polls, timeouts and backoff. */
const TEST_SETTINGS = {
  poll_timeout_seconds: 1,
  request_timeout_seconds: 2,
  reconnect_min_seconds: 0.2,
  reconnect_max_seconds: 1,
};

/** The `chat.telegram:` section for an emulator: the test settings, then `settings`. */
export function telegramSection(
  emu: TelegramEmulator,
  settings: Record<string, unknown> = {},
  token = emu.token,
): string {
  const all = { api_token: token, api_url: emu.url, ...TEST_SETTINGS, ...settings };
  return `chat.telegram:\n${Object.entries(all)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}\n`)
    .join('')}`;
}

/**
 * A service (and its HTTP app) with chat.telegram on this emulator and `yaml` besides; `dir` keeps
 * the workdir (and the plugin's store) for a second service, as a restart does.
 */
export async function telegramApp(
  emu: TelegramEmulator,
  opts: {
    settings?: Record<string, unknown>;
    yaml?: string;
    token?: string;
    dir?: string;
    log?: Logger;
    /** Leave the `chat.telegram:` section out (`yaml` has one under another name). */
    omitSection?: boolean;
  } = {},
): Promise<TestApp> {
  const section = opts.omitSection ? '' : telegramSection(emu, opts.settings, opts.token);
  return makeApp(`${section}${opts.yaml ?? ''}`, {
    ...(opts.dir ? { dir: opts.dir } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
}

/** What `pipit status` shows of the plugin's link (setStatus). */
export function link(t: TestApp): { connected: boolean; detail?: string } | undefined {
  return serviceStatus(t.service).plugins.find((p) => p.name === 'chat.telegram')?.link;
}

/** The texts the bot sent, in order: what hooks that reply with send_message said. */
export function sentTexts(emu: TelegramEmulator): string[] {
  return emu.control.sent().map((m) => (m.text ?? m.caption ?? '') as string);
}

/** vi.waitFor's bound for what takes a poll cycle or two (the default 1 s is one cycle). */
export const WAIT = { timeout: 5000, interval: 20 };

/** One test's emulator, and the app it starts on it (if any). */
export interface TelegramFixture {
  emu: TelegramEmulator;
  t: TestApp | undefined;
}

/**
 * Starts an emulator before each test of the enclosing `describe` and, after each, closes the app
 * the test left in `t` and the emulator.
 *
 * @example
 * const fx = telegramFixture();
 * it('sends', async () => { fx.t = await telegramApp(fx.emu); });
 */
export function telegramFixture(): TelegramFixture {
  const fx = { t: undefined } as TelegramFixture;
  beforeEach(async () => {
    fx.emu = await startTelegramEmulator();
  });
  afterEach(async () => {
    await fx.t?.close();
    fx.t = undefined;
    await fx.emu.close();
  });
  return fx;
}
