import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TelegramEmulator } from './index.ts';
import { DOCS_TOKEN, greyPng, startTelegramEmulator } from './index.ts';

// Answers compared with the Bot API documentation: https://core.telegram.org/bots/api ("Making
// requests", getUpdates, sendMessage, sendPhoto, "Sending files") and the update examples of
// https://core.telegram.org/bots/webhooks#testing-your-bot-with-updates, copied below as fixtures.

// https://core.telegram.org/bots/webhooks#testing-your-bot-with-updates, "Message with text".
const DOCS_TEXT_UPDATE = {
  update_id: 10000,
  message: {
    date: 1441645532,
    chat: {
      last_name: 'Test Lastname',
      id: 1111111,
      type: 'private',
      first_name: 'Test Firstname',
      username: 'Testusername',
    },
    message_id: 1365,
    from: {
      last_name: 'Test Lastname',
      id: 1111111,
      first_name: 'Test Firstname',
      username: 'Testusername',
    },
    text: '/start',
  },
};

// The same page, "Message with a document".
const DOCS_DOCUMENT_UPDATE = {
  update_id: 10000,
  message: {
    date: 1441645532,
    chat: {
      last_name: 'Test Lastname',
      type: 'private',
      id: 1111111,
      first_name: 'Test Firstname',
      username: 'Testusername',
    },
    message_id: 1365,
    from: {
      last_name: 'Test Lastname',
      id: 1111111,
      first_name: 'Test Firstname',
      username: 'Testusername',
    },
    document: {
      file_id: 'AwADBAADbXXXXXXXXXXXGBdhD2l6_XX',
      file_name: 'Testfile.pdf',
      mime_type: 'application/pdf',
      file_size: 536392,
    },
  },
};

// https://core.telegram.org/bots/api#making-requests: the example request.
const DOCS_GET_ME_PATH = '/bot123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11/getMe';

type Envelope = {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
};

async function bot(
  emu: TelegramEmulator,
  method: string,
  params?: Record<string, unknown> | FormData | URLSearchParams,
  token = emu.token,
): Promise<{ status: number; body: Envelope }> {
  const body =
    params instanceof FormData || params instanceof URLSearchParams
      ? params
      : params === undefined
        ? undefined
        : JSON.stringify(params);
  const res = await fetch(`${emu.url}/bot${token}/${method}`, {
    method: 'POST',
    ...(typeof body === 'string' ? { headers: { 'content-type': 'application/json' } } : {}),
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, body: (await res.json()) as Envelope };
}

describe('telegram emulator (Bot API)', () => {
  let emu: TelegramEmulator;
  beforeEach(async () => {
    emu = await startTelegramEmulator();
  });
  afterEach(() => emu.close());

  it('answers getMe at the documentation’s example URL with a User in {ok, result}', async () => {
    expect(emu.token).toBe(DOCS_TOKEN);
    const res = await fetch(`${emu.url}${DOCS_GET_ME_PATH}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Envelope;
    expect(body).toEqual({ ok: true, result: expect.any(Object) });
    expect(body.result).toMatchObject({ id: 123456, is_bot: true, first_name: expect.any(String) });
    expect(body.result).toHaveProperty('can_join_groups');
  });

  it('refuses a wrong token with 401 and an unknown method with 404, in the error envelope', async () => {
    expect(await bot(emu, 'getMe', undefined, '123456:wrong')).toEqual({
      status: 401,
      body: { ok: false, error_code: 401, description: 'Unauthorized' },
    });
    expect(await bot(emu, 'fly')).toEqual({
      status: 404,
      body: { ok: false, error_code: 404, description: 'Not Found' },
    });
    // Method names are case-insensitive ("Making requests").
    expect((await bot(emu, 'GETME')).body.ok).toBe(true);
  });

  it('serves the guide’s example updates through getUpdates as they are', async () => {
    emu.control.pushUpdate(structuredClone(DOCS_TEXT_UPDATE));
    expect(await bot(emu, 'getUpdates')).toEqual({
      status: 200,
      body: { ok: true, result: [DOCS_TEXT_UPDATE] },
    });
    // Not confirmed yet: served again; an offset above its update_id confirms it.
    expect((await bot(emu, 'getUpdates')).body.result).toEqual([DOCS_TEXT_UPDATE]);
    expect((await bot(emu, 'getUpdates', { offset: 10001 })).body.result).toEqual([]);
    emu.control.pushUpdate({ ...structuredClone(DOCS_DOCUMENT_UPDATE), update_id: 10001 });
    expect((await bot(emu, 'getUpdates', { offset: 10001 })).body.result).toEqual([
      { ...DOCS_DOCUMENT_UPDATE, update_id: 10001 },
    ]);
  });

  it('numbers updates sequentially and forgets all but the last -offset ones for a negative offset', async () => {
    for (const text of ['a', 'b', 'c']) emu.control.userMessage({ text });
    const all = (await bot(emu, 'getUpdates', { limit: 2 })).body.result as Array<{
      update_id: number;
      message: { text: string };
    }>;
    expect(all.map((u) => u.message.text)).toEqual(['a', 'b']);
    expect(all[1]!.update_id).toBe(all[0]!.update_id + 1);
    const last = (await bot(emu, 'getUpdates', { offset: -1 })).body.result as typeof all;
    expect(last.map((u) => u.message.text)).toEqual(['c']);
    expect((await bot(emu, 'getUpdates')).body.result).toEqual(last);
  });

  it('holds a long poll until an update arrives, and answers [] after timeout seconds', async () => {
    const started = Date.now();
    expect((await bot(emu, 'getUpdates', { timeout: 1 })).body.result).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const held = bot(emu, 'getUpdates', { timeout: 10 });
    // The poll is held once the emulator has read it.
    await expect.poll(() => emu.control.callsOf('getUpdates').length).toBe(2);
    const sentAt = Date.now();
    emu.control.userMessage({ text: 'now' });
    const answer = await held;
    expect(Date.now() - sentAt).toBeLessThan(1000);
    expect(answer.body.result).toMatchObject([{ message: { text: 'now' } }]);
  });

  it('ends a held long poll with 409 Conflict when a second one comes', async () => {
    const first = bot(emu, 'getUpdates', { timeout: 10 });
    await expect.poll(() => emu.control.callsOf('getUpdates').length).toBe(1);
    const second = bot(emu, 'getUpdates', { timeout: 1 });
    expect(await first).toMatchObject({ status: 409, body: { ok: false, error_code: 409 } });
    expect((await second).body).toEqual({ ok: true, result: [] });
  });

  it('answers 429 with parameters.retry_after (ResponseParameters) when told to', async () => {
    emu.control.fail('sendMessage', { error_code: 429, retry_after: 3 });
    expect(await bot(emu, 'sendMessage', { chat_id: 1111111, text: 'hi' })).toEqual({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 3',
        parameters: { retry_after: 3 },
      },
    });
    expect((await bot(emu, 'sendMessage', { chat_id: 1111111, text: 'hi' })).status).toBe(200);
  });

  it('sends a message as JSON, as a form and in the query string, answering the Message', async () => {
    const json = await bot(emu, 'sendMessage', {
      chat_id: 1111111,
      text: 'Hello *there*',
      parse_mode: 'Markdown',
      link_preview_options: { is_disabled: true },
    });
    expect(json.body.result).toMatchObject({
      message_id: expect.any(Number),
      from: { id: 123456, is_bot: true },
      chat: { id: 1111111, type: 'private' },
      date: expect.any(Number),
      text: 'Hello *there*',
      link_preview_options: { is_disabled: true },
    });
    const id = (json.body.result as { message_id: number }).message_id;
    const form = await bot(
      emu,
      'sendMessage',
      new URLSearchParams({
        chat_id: '1111111',
        text: 'a reply',
        reply_parameters: JSON.stringify({ message_id: id }),
      }),
    );
    expect(form.body.result).toMatchObject({ reply_to_message: { message_id: id } });
    const query = await fetch(`${emu.url}/bot${emu.token}/sendMessage?chat_id=1111111&text=q`);
    expect(((await query.json()) as Envelope).result).toMatchObject({ text: 'q' });
    expect(emu.control.sent().map((m) => m.text)).toEqual(['Hello *there*', 'a reply', 'q']);
  });

  it('refuses what the Bot API refuses with 400 Bad Request', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ chat_id: 42, text: 'x' }, 'Bad Request: chat not found'],
      [{ chat_id: 1111111, text: '' }, 'Bad Request: message text is empty'],
      [{ chat_id: 1111111, text: 'x', parse_mode: 'RTF' }, 'Bad Request: unsupported parse_mode'],
      [
        { chat_id: 1111111, text: 'x', reply_parameters: { message_id: 999999 } },
        'Bad Request: message to be replied not found',
      ],
    ];
    for (const [params, description] of cases)
      expect((await bot(emu, 'sendMessage', params)).body).toEqual({
        ok: false,
        error_code: 400,
        description,
      });
  });

  it('takes a photo uploaded as multipart/form-data and answers its PhotoSize array', async () => {
    const form = new FormData();
    form.set('chat_id', '1111111');
    form.set('caption', 'the garden');
    form.set(
      'photo',
      new Blob([new Uint8Array(greyPng(640, 480))], { type: 'image/png' }),
      'garden.png',
    );
    const { body } = await bot(emu, 'sendPhoto', form);
    const message = body.result as {
      caption: string;
      photo: Array<{
        file_id: string;
        file_unique_id: string;
        width: number;
        height: number;
        file_size: number;
      }>;
    };
    expect(message.caption).toBe('the garden');
    // Smallest first; the last is the picture itself.
    expect(message.photo.at(-1)).toMatchObject({ width: 640, height: 480 });
    expect(message.photo[0]!.width).toBeLessThan(640);
    for (const size of message.photo)
      expect(size).toEqual({
        file_id: expect.any(String),
        file_unique_id: expect.any(String),
        file_size: expect.any(Number),
        width: expect.any(Number),
        height: expect.any(Number),
      });
    // "Resending a photo by file_id will send all of its sizes."
    const again = await bot(emu, 'sendPhoto', {
      chat_id: 1111111,
      photo: message.photo[0]!.file_id,
    });
    expect((again.body.result as typeof message).photo).toEqual(message.photo);
    // "attach://<name>" names an uploaded part.
    const attached = new FormData();
    attached.set('chat_id', '1111111');
    attached.set('photo', 'attach://pic');
    attached.set('pic', new Blob([new Uint8Array(greyPng(50, 20))]), 'pic.png');
    expect(((await bot(emu, 'sendPhoto', attached)).body.result as typeof message).photo).toEqual([
      expect.objectContaining({ width: 50, height: 20 }),
    ]);
  });

  it('refuses a photo that is no picture, and a file_id it never gave', async () => {
    const form = new FormData();
    form.set('chat_id', '1111111');
    form.set('photo', new Blob(['not a picture']), 'x.png');
    expect((await bot(emu, 'sendPhoto', form)).body.description).toBe(
      'Bad Request: IMAGE_PROCESS_FAILED',
    );
    expect(
      (await bot(emu, 'sendPhoto', { chat_id: 1111111, photo: 'AgACnope' })).body.description,
    ).toBe('Bad Request: wrong file identifier/HTTP URL specified');
    expect((await bot(emu, 'sendPhoto', { chat_id: 1111111 })).body.description).toBe(
      'Bad Request: there is no photo in the request',
    );
  });

  it('takes a document upload and answers its Document', async () => {
    const form = new FormData();
    form.set('chat_id', '1111111');
    form.set('document', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'Testfile.pdf');
    const { body } = await bot(emu, 'sendDocument', form);
    expect((body.result as { document: unknown }).document).toEqual({
      file_name: 'Testfile.pdf',
      mime_type: 'application/pdf',
      file_id: expect.any(String),
      file_unique_id: expect.any(String),
      file_size: 8,
    });
    expect(emu.control.callsOf('sendDocument')[0]!.files.document!.bytes.toString()).toBe(
      '%PDF-1.4',
    );
  });

  it('keeps unconfirmed updates over a restart, and can die right after delivering them', async () => {
    emu.control.userMessage({ text: 'kept' });
    emu.control.dieAfterDelivery = true;
    expect((await bot(emu, 'getUpdates')).body.result).toMatchObject([
      { message: { text: 'kept' } },
    ]);
    await expect(fetch(`${emu.url}/bot${emu.token}/getMe`)).rejects.toThrow();
    await emu.start();
    expect((await bot(emu, 'getUpdates')).body.result).toMatchObject([
      { message: { text: 'kept' } },
    ]);
  });

  it('leaves stalled requests unanswered, then drops them', async () => {
    emu.control.stall(true, 'sendMessage');
    const pending = bot(emu, 'sendMessage', { chat_id: 1111111, text: 'x' });
    await expect.poll(() => emu.control.callsOf('sendMessage').length).toBe(1);
    expect((await bot(emu, 'getMe')).status).toBe(200);
    emu.control.stall(false, 'sendMessage');
    await expect(pending).rejects.toThrow();
  });
});
