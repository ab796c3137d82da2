import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/load.ts';
import { tempDir } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { link, plugins, sentTexts, telegramApp, telegramFixture, WAIT } from './helpers.ts';

// The section: Platypush's keys under either of its names, and clear refusals.

describe('chat.telegram configuration', () => {
  const fx = telegramFixture();

  it('refuses a token that is no bot token, naming the key but not echoing it', async () => {
    const err = await telegramApp(fx.emu, { token: 'my secret bot password' }).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(err?.code).toBe('CONFIG_INVALID');
    expect(err?.message).toContain('api_token');
    expect(err?.message).toContain('is not a bot token');
    expect(err?.message).not.toContain('my secret bot password');
  });

  it('refuses an authorized chat that is neither an id nor an @username', async () => {
    const err = await telegramApp(fx.emu, { settings: { authorized_chat_ids: ['my group'] } }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain('authorized_chat_ids');
    expect(err?.message).toContain('is not a chat id: write a number, or @username');
  });

  it('reads a `telegram:` section (Platypush 1.x’s name) and answers to telegram.send_message', async () => {
    const section = `telegram:\n  api_token: '${fx.emu.token}'\n  api_url: ${fx.emu.url}\n  poll: false\n`;
    fx.t = await telegramApp(fx.emu, { yaml: section, omitSection: true });
    await vi.waitFor(() => expect(link(fx.t!)).toMatchObject({ connected: true }), WAIT);
    const res = await call(fx.t, 'telegram.send_message', { chat_id: 1111111, text: 'hi' });
    expect(res.errors).toEqual([]);
    expect(fx.emu.control.callsOf('sendMessage')).toHaveLength(1);
  });

  it("takes Platypush 0.x's backend.chat.telegram authorized_chat_ids into the section", async () => {
    const platypush = `chat.telegram:\n  api_token: '${fx.emu.token}'\nbackend.chat.telegram:\n  authorized_chat_ids: [1111111]\n`;
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
    fx.t = await telegramApp(fx.emu, { yaml: hook });
    fx.emu.control.userMessage({ text: 'stranger', chat: { id: 2222222, type: 'private' } });
    fx.emu.control.userMessage({ text: 'me' });
    await vi.waitFor(() => expect(sentTexts(fx.emu)).toEqual(['got me']), WAIT);
  });
});
