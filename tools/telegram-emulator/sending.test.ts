import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Envelope } from './bot-client.ts';
import { bot } from './bot-client.ts';
import type { TelegramEmulator } from './index.ts';
import { greyPng, startTelegramEmulator } from './index.ts';

// sendMessage, sendPhoto and sendDocument, as https://core.telegram.org/bots/api describes them
// (sendMessage, sendPhoto, sendDocument, "Sending files", PhotoSize, Document, ResponseParameters).

describe('telegram emulator: sending', () => {
  let emu: TelegramEmulator;
  beforeEach(async () => {
    emu = await startTelegramEmulator();
  });
  afterEach(() => emu.close());

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
});
