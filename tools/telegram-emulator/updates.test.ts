import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Envelope } from './bot-client.ts';
import { bot } from './bot-client.ts';
import type { TelegramEmulator } from './index.ts';
import { DOCS_DOCUMENT_UPDATE, DOCS_TEXT_UPDATE } from './docs-examples.ts';
import { DOCS_TOKEN, startTelegramEmulator } from './index.ts';

// getMe, the envelope and getUpdates, compared with the Bot API documentation:
// https://core.telegram.org/bots/api ("Making requests", getUpdates) and the update examples of
// https://core.telegram.org/bots/webhooks#testing-your-bot-with-updates (docs-examples.ts).

// https://core.telegram.org/bots/api#making-requests: the example request.
const DOCS_GET_ME_PATH = '/bot123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11/getMe';

describe('telegram emulator: getMe and getUpdates', () => {
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
