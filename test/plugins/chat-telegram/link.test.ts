import { describe, expect, it, vi } from 'vitest';
import { call } from '../call.ts';
import { link, telegramApp, telegramFixture, WAIT } from './helpers.ts';

// The link to the Bot API: a refused token, a rate limit, a server that goes away, another client.

const SEND = { chat_id: 1111111, text: 'x' };

describe('chat.telegram link to the Bot API', () => {
  const fx = telegramFixture();

  it('says which key to fix when the Bot API refuses the token, and stops asking', async () => {
    fx.t = await telegramApp(fx.emu, { token: '123456:not-the-token' });
    await vi.waitFor(
      () =>
        expect(link(fx.t!)).toEqual({
          connected: false,
          detail: expect.stringContaining(
            'refused the bot token (401 Unauthorized): check chat.telegram.api_token',
          ),
        }),
      WAIT,
    );
    const res = await call(fx.t, 'chat.telegram.send_message', SEND);
    expect(res.code).toBe('UNAVAILABLE');
    expect(res.errors.join()).toContain('check chat.telegram.api_token');
    expect(res.errors.join()).not.toContain('not-the-token');
    // One getMe, then nothing: no polling, and the send failed without a request.
    expect(fx.emu.control.calls.map((c) => c.method)).toEqual(['getMe']);
  });

  it('stops polling when the token is revoked while it runs', async () => {
    fx.t = await telegramApp(fx.emu);
    await vi.waitFor(() => expect(link(fx.t!)).toMatchObject({ connected: true }), WAIT);
    fx.emu.control.setToken('123456:a-new-token');
    await vi.waitFor(
      () => expect(link(fx.t!)?.detail).toContain('stopped until the token is fixed'),
      WAIT,
    );
    const polls = fx.emu.control.callsOf('getUpdates').length;
    expect((await call(fx.t, 'chat.telegram.send_message', SEND)).code).toBe('UNAVAILABLE');
    expect(fx.emu.control.callsOf('getUpdates').at(-1)!.status).toBe(401);
    expect(fx.emu.control.callsOf('getUpdates')).toHaveLength(polls);
    expect(fx.emu.control.callsOf('sendMessage')).toEqual([]);
  });

  it('waits a 429’s retry_after before polling again', async () => {
    fx.t = await telegramApp(fx.emu);
    await vi.waitFor(() => expect(link(fx.t!)).toMatchObject({ connected: true }), WAIT);
    fx.emu.control.fail('getUpdates', { error_code: 429, retry_after: 1 });
    await vi.waitFor(
      () => expect(fx.emu.control.callsOf('getUpdates').some((c) => c.status === 429)).toBe(true),
      WAIT,
    );
    const polls = fx.emu.control.callsOf('getUpdates');
    const limited = polls.findIndex((c) => c.status === 429);
    await vi.waitFor(
      () => expect(fx.emu.control.callsOf('getUpdates').length).toBeGreaterThan(limited + 1),
      WAIT,
    );
    const next = fx.emu.control.callsOf('getUpdates')[limited + 1]!;
    expect(next.at - polls[limited]!.answeredAt!).toBeGreaterThanOrEqual(990);
    // A rate limit is no broken link.
    expect(link(fx.t)).toMatchObject({ connected: true });
    fx.emu.control.userMessage({ text: 'after the limit' });
    await vi.waitFor(() => expect(fx.emu.control.queue.unconfirmed()).toEqual([]), WAIT);
  });

  it('fails fast while the Bot API is unreachable, and reconnects when it is back', async () => {
    fx.t = await telegramApp(fx.emu, {
      settings: { reconnect_min_seconds: 2, reconnect_max_seconds: 2 },
    });
    await vi.waitFor(() => expect(link(fx.t!)).toMatchObject({ connected: true }), WAIT);
    await fx.emu.stop();
    await vi.waitFor(
      () =>
        expect(link(fx.t!)).toEqual({
          connected: false,
          detail: expect.stringMatching(
            /Bot API at 127\.0\.0\.1:\d+ is not reachable: (ECONNREFUSED|ECONNRESET|other side closed); retrying in \d s$/,
          ),
        }),
      WAIT,
    );
    const started = Date.now();
    const res = await call(fx.t, 'chat.telegram.send_message', SEND);
    expect(Date.now() - started).toBeLessThan(500);
    expect(res.code).toBe('UNAVAILABLE');
    expect(res.errors.join()).toMatch(
      /^chat\.telegram is not connected: the Bot API at .* is not reachable: (ECONNREFUSED|ECONNRESET|other side closed); retrying in \d s$/,
    );
    await fx.emu.start();
    await vi.waitFor(() => expect(link(fx.t!)).toMatchObject({ connected: true }), WAIT);
    expect((await call(fx.t, 'chat.telegram.send_message', SEND)).errors).toEqual([]);
  });

  it('says so when another client reads the bot’s updates (409 Conflict)', async () => {
    // Long polls of 5 s: the plugin's is surely still held when the other client's comes.
    fx.t = await telegramApp(fx.emu, {
      settings: { poll_timeout_seconds: 5, reconnect_min_seconds: 2, reconnect_max_seconds: 2 },
    });
    await vi.waitFor(() => expect(link(fx.t!)).toMatchObject({ connected: true }), WAIT);
    // The plugin's poll is held; another client's long poll ends it with 409.
    await vi.waitFor(
      () => expect(fx.emu.control.callsOf('getUpdates').at(-1)!.status).toBe(0),
      WAIT,
    );
    const other = fetch(`${fx.emu.url}/bot${fx.emu.token}/getUpdates?timeout=1`);
    await vi.waitFor(
      () =>
        expect(link(fx.t!)?.detail).toContain(
          "another client is reading this bot's updates (409 Conflict)",
        ),
      WAIT,
    );
    expect((await other).status).toBe(200);
  });
});
