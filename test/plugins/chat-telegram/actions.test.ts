import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { greyPng } from '../../../tools/telegram-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import type { TelegramEmulator } from './helpers.ts';
import { link, startTelegramEmulator, telegramApp, WAIT } from './helpers.ts';

// The actions against the emulated Bot API: what arrives there, and what Pipit answers.

const CHAT = 1111111;

describe('chat.telegram actions', () => {
  let emu: TelegramEmulator;
  let t: TestApp;
  let files: string;
  beforeAll(() => {
    files = mkdtempSync(join(tmpdir(), 'pipit-telegram-'));
    writeFileSync(join(files, 'door.png'), greyPng(640, 480));
    writeFileSync(join(files, 'report.pdf'), '%PDF-1.4 report');
  });
  afterAll(() => rmSync(files, { recursive: true, force: true }));
  beforeEach(async () => {
    emu = await startTelegramEmulator();
    // poll: false keeps getUpdates out of the request log of these tests.
    t = await telegramApp(emu, { settings: { poll: false } });
    await vi.waitFor(() => expect(link(t)).toMatchObject({ connected: true }), WAIT);
  });
  afterEach(async () => {
    await t?.close();
    await emu.close();
  });

  it('send_message sends Platypush’s arguments as the Bot API’s, and answers Platypush’s message', async () => {
    const first = await call(t, 'chat.telegram.send_message', { chat_id: CHAT, text: 'first' });
    expect(first.code).toBeUndefined();
    const res = await call(t, 'chat.telegram.send_message', {
      chat_id: String(CHAT),
      text: 'The *door* is open: http://cam.local',
      parse_mode: 'markdown',
      disable_web_page_preview: true,
      disable_notification: true,
      reply_to_message_id: (first.output as { message_id: number }).message_id,
    });
    expect(res.errors).toEqual([]);
    expect(emu.control.callsOf('sendMessage')[1]!.params).toEqual({
      chat_id: String(CHAT),
      text: 'The *door* is open: http://cam.local',
      parse_mode: 'Markdown',
      link_preview_options: { is_disabled: true },
      disable_notification: true,
      reply_parameters: { message_id: (first.output as { message_id: number }).message_id },
    });
    expect(res.output).toMatchObject({
      message_id: expect.any(Number),
      chat_id: CHAT,
      chat_username: 'Testusername',
      chat_firstname: 'Test Firstname',
      chat_lastname: 'Test Lastname',
      from_user_id: 123456,
      from_username: 'pipit_test_bot',
      text: 'The *door* is open: http://cam.local',
      caption: null,
      creation_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      link: null,
    });
    // Only what was asked: no false flags, no empty options.
    expect(emu.control.callsOf('sendMessage')[0]!.params).toEqual({ chat_id: CHAT, text: 'first' });
  });

  it('send_photo uploads a local path as multipart/form-data, the bytes intact', async () => {
    const res = await call(t, 'chat.telegram.send_photo', {
      chat_id: CHAT,
      path: join(files, 'door.png'),
      caption: 'Front door',
    });
    expect(res.errors).toEqual([]);
    const sent = emu.control.callsOf('sendPhoto')[0]!;
    expect(sent.params).toEqual({ chat_id: String(CHAT), caption: 'Front door' });
    expect(sent.files.photo!.filename).toBe('door.png');
    expect(sent.files.photo!.bytes.equals(greyPng(640, 480))).toBe(true);
    expect(res.output).toMatchObject({
      caption: 'Front door',
      photo_width: 640,
      photo_height: 480,
      photo_file_id: expect.any(String),
    });
    // The file_id it answered sends the picture again without an upload, as `photo` or `file_id`.
    const fileId = (res.output as { photo_file_id: string }).photo_file_id;
    for (const args of [{ photo: fileId }, { file_id: fileId }]) {
      const again = await call(t, 'chat.telegram.send_photo', { chat_id: CHAT, ...args });
      expect(again.output).toMatchObject({ photo_file_id: fileId });
    }
    expect(emu.control.callsOf('sendPhoto')[2]!.params).toEqual({ chat_id: CHAT, photo: fileId });
  });

  it('send_photo passes a URL for Telegram to fetch, and `photo` reads a path or a URL', async () => {
    await call(t, 'chat.telegram.send_photo', { chat_id: CHAT, url: 'https://example.org/a.jpg' });
    await call(t, 'chat.telegram.send_photo', {
      chat_id: CHAT,
      photo: 'https://example.org/b.jpg',
    });
    await call(t, 'chat.telegram.send_photo', { chat_id: CHAT, photo: join(files, 'door.png') });
    const calls = emu.control.callsOf('sendPhoto');
    expect(calls.map((c) => c.params.photo)).toEqual([
      'https://example.org/a.jpg',
      'https://example.org/b.jpg',
      undefined,
    ]);
    expect(calls[2]!.files.photo!.filename).toBe('door.png');
  });

  it('send_photo names what is wrong with its file arguments', async () => {
    const none = await call(t, 'chat.telegram.send_photo', { chat_id: CHAT });
    expect(none.reason).toBe('INVALID_ARGUMENTS');
    expect(none.errors.join()).toContain('give exactly one of photo, file_id, url or path');
    const two = await call(t, 'chat.telegram.send_photo', {
      chat_id: CHAT,
      url: 'https://example.org/a.jpg',
      path: '/x.jpg',
    });
    expect(two.errors.join()).toContain('(got url, path)');
    const missing = await call(t, 'chat.telegram.send_photo', {
      chat_id: CHAT,
      path: join(files, 'nope.jpg'),
    });
    expect(missing.reason).toBe('INVALID_ARGUMENTS');
    expect(missing.errors.join()).toContain(
      `cannot read path "${join(files, 'nope.jpg')}" (ENOENT)`,
    );
    // Telegram's refusal of a file that is no picture comes back as it said it.
    const notPicture = await call(t, 'chat.telegram.send_photo', {
      chat_id: CHAT,
      path: join(files, 'report.pdf'),
    });
    expect(notPicture.reason).toBe('INVALID_ARGUMENTS');
    expect(notPicture.errors.join()).toContain('Bad Request: IMAGE_PROCESS_FAILED');
    expect(emu.control.callsOf('sendPhoto')).toHaveLength(1);
  });

  it('send_document uploads under `filename`, and get_me answers the bot', async () => {
    const res = await call(t, 'chat.telegram.send_document', {
      chat_id: CHAT,
      path: join(files, 'report.pdf'),
      filename: 'Monthly report.pdf',
      caption: 'May',
    });
    expect(res.errors).toEqual([]);
    expect(res.output).toMatchObject({
      caption: 'May',
      document_file_name: 'Monthly report.pdf',
      document_file_size: 15,
      document_file_id: expect.any(String),
    });
    expect(emu.control.callsOf('sendDocument')[0]!.files.document!.bytes.toString()).toBe(
      '%PDF-1.4 report',
    );
    // poll: false: the plugin only sends, leaving the bot's updates to another client.
    expect(emu.control.callsOf('getUpdates')).toEqual([]);
    expect((await call(t, 'chat.telegram.get_me')).output).toEqual({
      user_id: 123456,
      id: 123456,
      username: 'pipit_test_bot',
      is_bot: true,
      first_name: 'Pipit Test Bot',
      last_name: null,
      language_code: null,
      link: 'https://t.me/pipit_test_bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
    });
  });

  it('reports the Bot API’s refusals and failures with their reason', async () => {
    const noChat = await call(t, 'chat.telegram.send_message', { chat_id: 42, text: 'x' });
    expect(noChat.reason).toBe('INVALID_ARGUMENTS');
    expect(noChat.errors.join()).toContain(
      'the Bot API refused sendMessage: Bad Request: chat not found',
    );
    const badMode = await call(t, 'chat.telegram.send_message', {
      chat_id: CHAT,
      text: 'x',
      parse_mode: 'RTF',
    });
    expect(badMode.code).toBe('INVALID_ARGUMENTS');
    expect(badMode.errors.join()).toContain('must be Markdown, MarkdownV2 or HTML');
    emu.control.fail('sendMessage', { error_code: 500 });
    const down = await call(t, 'chat.telegram.send_message', { chat_id: CHAT, text: 'x' });
    expect(down.reason).toBe('UPSTREAM_ERROR');
    expect(down.errors.join()).toContain('answered sendMessage with 500: Internal Server Error');
    emu.control.fail('sendMessage', { error_code: 403 });
    const blocked = await call(t, 'chat.telegram.send_message', { chat_id: CHAT, text: 'x' });
    expect(blocked.errors.join()).toContain('Forbidden: bot was blocked by the user');
  });

  it('waits out a 429’s retry_after and sends once more; a longer one fails RATE_LIMITED', async () => {
    emu.control.fail('sendMessage', { error_code: 429, retry_after: 1 });
    const res = await call(t, 'chat.telegram.send_message', { chat_id: CHAT, text: 'patient' });
    expect(res.errors).toEqual([]);
    const [refused, accepted] = emu.control.callsOf('sendMessage');
    expect(refused!.status).toBe(429);
    expect(accepted!.at - refused!.answeredAt!).toBeGreaterThanOrEqual(990);
    emu.control.fail('sendMessage', { error_code: 429, retry_after: 120 });
    const started = Date.now();
    const limited = await call(t, 'chat.telegram.send_message', { chat_id: CHAT, text: 'x' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(limited.reason).toBe('RATE_LIMITED');
    expect(limited.errors.join()).toContain('retry after 120 s');
    expect(limited.errors.join()).toContain('chat.telegram.max_retry_after_seconds');
    // Meanwhile further sends are not made at all: Telegram asked for 120 s.
    const meanwhile = await call(t, 'chat.telegram.send_message', { chat_id: CHAT, text: 'x' });
    expect(meanwhile.reason).toBe('RATE_LIMITED');
    expect(emu.control.callsOf('sendMessage')).toHaveLength(3);
  });

  it('fails with TIMEOUT when the Bot API does not answer in time', async () => {
    emu.control.stall(true, 'sendMessage');
    const started = Date.now();
    const res = await call(t, 'chat.telegram.send_message', {
      chat_id: CHAT,
      text: 'x',
      timeout: 0.5,
    });
    expect(res.reason).toBe('TIMEOUT');
    expect(res.errors.join()).toContain(
      'did not answer sendMessage within 0.5 s (the timeout argument)',
    );
    const configured = await call(t, 'chat.telegram.send_message', { chat_id: CHAT, text: 'x' });
    expect(configured.errors.join()).toContain(
      'within 2 s (chat.telegram.request_timeout_seconds)',
    );
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
