import { describe, expect, it, vi } from 'vitest';
import { captureLog, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { DOCS_DOCUMENT_UPDATE } from '../../../tools/telegram-emulator/docs-examples.ts';
import { link, sentTexts, telegramApp, telegramFixture, WAIT } from './helpers.ts';

// Messages users send the bot, through long polling, to Platypush's events and the hooks on them.

// The hooks answer through send_message: what the emulator receives is what they saw.
const HOOKS = `
event.hook.TelegramText:
  if:
    type: TextMessageEvent
  then:
    - action: chat.telegram.send_message
      args:
        chat_id: \${chat_id}
        text: 'text from \${user.first_name}: \${message.text}'
    - action: variable.set
      args:
        tg_message: \${message}
        tg_user: \${user}
# A Platypush hook, by Platypush's full name of the kind: it matches unchanged.
event.hook.TelegramLights:
  if:
    type: platypush.message.event.chat.telegram.CommandMessageEvent
    command: lights
  then:
    - action: chat.telegram.send_message
      args:
        chat_id: \${chat_id}
        text: 'lights \${cmdargs}'
event.hook.TelegramPhoto:
  if:
    type: chat.telegram.PhotoMessageEvent
  then:
    - action: chat.telegram.send_message
      args: {chat_id: '\${chat_id}', text: 'photo \${message.photo_width}x\${message.photo_height}'}
event.hook.TelegramDocument:
  if:
    type: DocumentMessageEvent
  then:
    - action: chat.telegram.send_message
      args: {chat_id: '\${chat_id}', text: 'document \${message.document_file_name}'}
`;

describe('chat.telegram incoming messages', () => {
  const fx = telegramFixture();

  it('raises TextMessageEvent and CommandMessageEvent with Platypush’s fields, reaching hooks', async () => {
    fx.t = await telegramApp(fx.emu, { yaml: HOOKS });
    // A command for another bot of the group is just text to this one.
    fx.emu.control.userMessage({ text: '/lights@other_bot off' });
    fx.emu.control.userMessage({ text: '/Lights@pipit_test_bot on  kitchen\nplease' });
    fx.emu.control.userMessage({ text: 'hello bot' });
    await vi.waitFor(
      () =>
        expect(sentTexts(fx.emu)).toEqual([
          'text from Test Firstname: /lights@other_bot off',
          'lights ["on","kitchen","please"]',
          'text from Test Firstname: hello bot',
        ]),
      WAIT,
    );
    const stored = (await call(fx.t, 'variable.get', { name: 'tg_message' })).output as {
      tg_message: unknown;
    };
    expect(stored.tg_message).toMatchObject({
      message_id: expect.any(Number),
      chat_id: 1111111,
      chat_username: 'Testusername',
      from_user_id: 1111111,
      from_firstname: 'Test Firstname',
      text: 'hello bot',
      creation_date: expect.stringMatching(/\+00:00$/),
    });
    expect((await call(fx.t, 'variable.get', { name: 'tg_user' })).output).toEqual({
      tg_user: {
        user_id: 1111111,
        id: 1111111,
        username: 'Testusername',
        is_bot: false,
        first_name: 'Test Firstname',
        last_name: 'Test Lastname',
        language_code: null,
        link: 'https://t.me/Testusername',
      },
    });
  });

  it('raises PhotoMessageEvent and DocumentMessageEvent (the guide’s example update)', async () => {
    fx.t = await telegramApp(fx.emu, { yaml: HOOKS });
    await vi.waitFor(() => expect(link(fx.t!)).toMatchObject({ connected: true }), WAIT);
    fx.emu.control.userMessage({
      photo: [
        { file_id: 'small', file_unique_id: 's', width: 90, height: 60, file_size: 900 },
        { file_id: 'big', file_unique_id: 'b', width: 1200, height: 800, file_size: 90000 },
      ],
      caption: 'the garden',
    });
    fx.emu.control.pushUpdate(structuredClone({ ...DOCS_DOCUMENT_UPDATE, update_id: 20000 }));
    await vi.waitFor(
      () => expect(sentTexts(fx.emu)).toEqual(['photo 1200x800', 'document Testfile.pdf']),
      WAIT,
    );
  });

  it('ignores chats outside authorized_chat_ids, logging each once without its text', async () => {
    const { log, lines } = captureLog('info');
    fx.t = await telegramApp(fx.emu, {
      yaml: HOOKS,
      settings: { authorized_chat_ids: ['1111111', '@home_group'] },
      log,
    });
    const stranger = { id: 2222222, type: 'private' as const, first_name: 'Mallory' };
    fx.emu.control.userMessage({ text: 'secret plans', chat: stranger });
    fx.emu.control.userMessage({ text: '/lights off', chat: stranger });
    fx.emu.control.userMessage({
      text: 'more secrets',
      chat: { id: -100777, type: 'supergroup', title: 'Other' },
    });
    fx.emu.control.userMessage({
      text: 'from the group',
      chat: { id: -100555, type: 'supergroup', title: 'Home', username: 'home_group' },
    });
    fx.emu.control.userMessage({ text: 'from me' });
    // Updates are handled in order: once the last one is answered, the others were seen.
    await vi.waitFor(
      () =>
        expect(sentTexts(fx.emu)).toEqual([
          'text from Test Firstname: from the group',
          'text from Test Firstname: from me',
        ]),
      WAIT,
    );
    const all = JSON.stringify(lines);
    expect(all).not.toContain('secret');
    const ignored = lines.filter((l) =>
      String(l.msg).includes('not in chat.telegram.authorized_chat_ids'),
    );
    expect(ignored.map((l) => l.chat_id)).toEqual([2222222, -100777]);
  });

  it('keeps its offset over a Bot API restart and a Pipit restart: no update raised twice', async () => {
    const seen = `
event.hook.TelegramSeen:
  if:
    type: TextMessageEvent
  then:
    - action: utils.echo
      args: {seen: '\${message.text}'}
`;
    const workdir = tempDir();
    const times = async (app: TestApp, text: string) =>
      (
        (await call(app, 'runs.list', { action: 'utils.echo', include_steps: true, text }))
          .output as {
          runs: unknown[];
        }
      ).runs.length;
    try {
      fx.t = await telegramApp(fx.emu, { yaml: seen, dir: workdir.dir });
      await vi.waitFor(() => expect(link(fx.t!)).toMatchObject({ connected: true }), WAIT);
      // The server goes away right after delivering "one": it never hears it confirmed.
      fx.emu.control.dieAfterDelivery = true;
      fx.emu.control.userMessage({ text: 'one' });
      await vi.waitFor(async () => expect(await times(fx.t!, 'one')).toBe(1), WAIT);
      expect(
        fx.emu.control.queue.unconfirmed().map((u) => (u.message as { text: string }).text),
      ).toEqual(['one']);
      await fx.emu.start();
      fx.emu.control.userMessage({ text: 'two' });
      await vi.waitFor(async () => expect(await times(fx.t!, 'two')).toBe(1), WAIT);
      expect(await times(fx.t, 'one')).toBe(1);

      // Again, and Pipit restarts too: the offset comes from its store.
      fx.emu.control.dieAfterDelivery = true;
      fx.emu.control.userMessage({ text: 'three' });
      await vi.waitFor(async () => expect(await times(fx.t!, 'three')).toBe(1), WAIT);
      await fx.t.close();
      fx.t = undefined;
      expect(
        fx.emu.control.queue.unconfirmed().map((u) => (u.message as { text: string }).text),
      ).toEqual(['three']);
      await fx.emu.start();
      fx.t = await telegramApp(fx.emu, { yaml: seen, dir: workdir.dir });
      fx.emu.control.userMessage({ text: 'four' });
      await vi.waitFor(async () => expect(await times(fx.t!, 'four')).toBe(1), WAIT);
      expect(await times(fx.t, 'three')).toBe(1);
      const offsets = fx.emu.control.callsOf('getUpdates').map((c) => c.params.offset);
      expect(offsets.filter((o) => o === undefined)).toHaveLength(1);
    } finally {
      await fx.t?.close();
      fx.t = undefined;
      workdir.cleanup();
    }
  });

  it('leaves out an offset older than a day, which could skip the new numbering of updates', async () => {
    // After a week without updates Telegram numbers the next one at random, maybe below the old
    // offset; and it keeps no update longer than a day, so an older offset confirms nothing.
    const workdir = tempDir();
    const seen = `event.hook.Seen:\n  if: {type: TextMessageEvent}\n  then:\n    - action: chat.telegram.send_message\n      args: {chat_id: '\${chat_id}', text: 'seen \${message.text}'}\n`;
    const startWith = async (age: number) => {
      fx.t = await telegramApp(fx.emu, { dir: workdir.dir, yaml: seen, settings: { poll: false } });
      fx.t.service.store.pluginKv('chat.telegram').set('offset:123456', {
        offset: 50000,
        at: Date.now() - age,
      });
      await fx.t.close();
      fx.t = await telegramApp(fx.emu, { dir: workdir.dir, yaml: seen });
    };
    try {
      await startWith(0);
      fx.emu.control.userMessage({ text: 'under a fresh offset' });
      // The fresh offset (50000) confirms update 10000 unseen.
      await vi.waitFor(() => expect(fx.emu.control.queue.unconfirmed()).toEqual([]), WAIT);
      expect(fx.emu.control.callsOf('getUpdates')[0]!.params.offset).toBe(50000);
      await fx.t!.close();
      await startWith(25 * 3600_000);
      fx.emu.control.userMessage({ text: 'under a stale offset' });
      await vi.waitFor(
        () => expect(sentTexts(fx.emu)).toEqual(['seen under a stale offset']),
        WAIT,
      );
      expect(fx.emu.control.callsOf('getUpdates').map((c) => c.params.offset)).toContain(undefined);
    } finally {
      workdir.cleanup();
    }
  });
});
