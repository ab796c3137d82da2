import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/load.ts';
import { tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import type { TelegramEmulator } from './helpers.ts';
import { link, plugins, sentTexts, startTelegramEmulator, telegramApp, WAIT } from './helpers.ts';

// The section: Platypush's keys under either of its names, and clear refusals.

describe('chat.telegram configuration', () => {
  let emu: TelegramEmulator;
  let t: TestApp | undefined;
  beforeEach(async () => {
    emu = await startTelegramEmulator();
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
    await emu.close();
  });

  it('refuses a token that is no bot token, naming the key but not echoing it', async () => {
    const err = await telegramApp(emu, { token: 'my secret bot password' }).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(err?.code).toBe('CONFIG_INVALID');
    expect(err?.message).toContain('api_token');
    expect(err?.message).toContain('is not a bot token');
    expect(err?.message).not.toContain('my secret bot password');
  });

  it('refuses an authorized chat that is neither an id nor an @username', async () => {
    const err = await telegramApp(emu, { settings: { authorized_chat_ids: ['my group'] } }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain('authorized_chat_ids');
    expect(err?.message).toContain('is not a chat id: write a number, or @username');
  });

  it('reads a `telegram:` section (Platypush 1.x’s name) and answers to telegram.send_message', async () => {
    const section = `telegram:\n  api_token: '${emu.token}'\n  api_url: ${emu.url}\n  poll: false\n`;
    t = await telegramApp(emu, { yaml: section, omitSection: true });
    await vi.waitFor(() => expect(link(t!)).toMatchObject({ connected: true }), WAIT);
    const res = await call(t, 'telegram.send_message', { chat_id: 1111111, text: 'hi' });
    expect(res.errors).toEqual([]);
    expect(emu.control.callsOf('sendMessage')).toHaveLength(1);
  });

  it("takes Platypush 0.x's backend.chat.telegram authorized_chat_ids into the section", async () => {
    const platypush = `chat.telegram:\n  api_token: '${emu.token}'\nbackend.chat.telegram:\n  authorized_chat_ids: [1111111]\n`;
    const dir = tempDir();
    try {
      writeFileSync(join(dir.dir, 'config.yaml'), platypush);
      const config = loadConfig({ path: join(dir.dir, 'config.yaml'), plugins });
      expect(config.warnings.join('\n')).toContain(
        "backend.chat.telegram is read into chat.telegram: Pipit's chat.telegram sends and receives, and takes its authorized_chat_ids",
      );
      expect(config.plugins.get('chat.telegram')?.config).toMatchObject({
        authorized_chat_ids: [1111111],
      });
    } finally {
      dir.cleanup();
    }
    // At work: a stranger's message raises nothing.
    const hook = `backend.chat.telegram:\n  authorized_chat_ids: [1111111]\nevent.hook.Echo:\n  if: {type: TextMessageEvent}\n  then:\n    - action: chat.telegram.send_message\n      args: {chat_id: '\${chat_id}', text: 'got \${message.text}'}\n`;
    t = await telegramApp(emu, { yaml: hook });
    emu.control.userMessage({ text: 'stranger', chat: { id: 2222222, type: 'private' } });
    emu.control.userMessage({ text: 'me' });
    await vi.waitFor(() => expect(sentTexts(emu)).toEqual(['got me']), WAIT);
  });
});
