import { afterEach, describe, expect, it, vi } from 'vitest';
import { startNtfyEmulator } from '../../../tools/ntfy-emulator/index.ts';
import type { NtfyEmulator } from '../../../tools/ntfy-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call, notifications, ntfyApp, ntfyStatus } from './helpers.ts';

const TOKEN = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';

// A Pipit hook by the short name, and a Platypush hook by Platypush's full name of the kind.
const HOOKS = `event.hook.Alert:
  if:
    type: NotificationEvent
    topic: alerts
  then:
    - action: variable.set
      args:
        alert: \${title}/\${message}/\${priority}/\${url}
event.hook.PlatypushDoorbell:
  if:
    type: platypush.message.event.ntfy.NotificationEvent
    topic: doorbell
  then:
    - action: variable.set
      args:
        doorbell: \${message}
`;

async function variable(t: TestApp, name: string): Promise<unknown> {
  return ((await call(t, 'variable.get', { name })).output as Record<string, unknown>)[name];
}

/** The `since=` of each stream request of `topic` the emulator saw, in order. */
function sinces(emu: NtfyEmulator, topic: string): Array<string | null> {
  return emu.control.requests
    .filter((r) => r.method === 'GET' && r.url.startsWith(`/${topic}/json`))
    .map((r) => new URL(r.url, emu.url).searchParams.get('since'));
}

describe('ntfy subscriptions', () => {
  let emu: NtfyEmulator;
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    await emu?.close();
  });

  it('streams each topic at start and raises NotificationEvent, reaching hooks', async () => {
    emu = await startNtfyEmulator({ auth: { tokens: { [TOKEN]: 'phil' } } });
    t = await ntfyApp(emu.url, {
      section: `  token: ${TOKEN}\n  subscriptions: [alerts, doorbell]\n`,
      extra: HOOKS,
    });
    expect(ntfyStatus(t)).toEqual({
      connected: true,
      detail: `subscribed to alerts, doorbell on ${emu.url}`,
    });
    expect(emu.control.streams.map((s) => s.topics)).toEqual([['alerts'], ['doorbell']]);
    const seen = notifications(t);
    const sent = await call(t, 'ntfy.send_message', {
      topic: 'alerts',
      title: 'Unauthorized access detected',
      message: 'Movement detected in the yard',
      priority: 'max',
      tags: ['warning', 'skull'],
      url: 'https://homecam.mynet.lan/incident/1234',
    });
    emu.control.publish('doorbell', { message: 'ding' });
    await vi.waitFor(async () =>
      expect(await variable(t!, 'alert')).toBe(
        'Unauthorized access detected/Movement detected in the yard/5/https://homecam.mynet.lan/incident/1234',
      ),
    );
    await vi.waitFor(async () => expect(await variable(t!, 'doorbell')).toBe('ding'));
    const out = sent.output as { id: string; time: number };
    expect(seen.events[0]!.args).toMatchObject({
      id: out.id,
      time: out.time,
      topic: 'alerts',
      tags: ['warning', 'skull'],
      actions: null,
      attachment: null,
    });
    seen.stop();
  });

  it('reconnects after a dropped stream with since=<last id>: nothing lost, nothing repeated', async () => {
    emu = await startNtfyEmulator();
    t = await ntfyApp(emu.url, { section: '  subscriptions: [alerts]\n' });
    const seen = notifications(t);
    const first = emu.control.publish('alerts', { message: 'one' });
    await vi.waitFor(() => expect(seen.events).toHaveLength(1));
    // The server goes away; a message is published meanwhile (kept in its cache), then it is back.
    await emu.stop();
    await vi.waitFor(() => expect(ntfyStatus(t!)?.connected).toBe(false));
    expect(ntfyStatus(t)?.detail).toMatch(/^alerts: .*; retrying in \d+ s$/);
    const missed = emu.control.publish('alerts', { message: 'two' });
    await emu.start();
    await vi.waitFor(() => expect(ntfyStatus(t!)?.connected).toBe(true));
    await vi.waitFor(() => expect(seen.events).toHaveLength(2));
    expect(seen.events[1]!.args).toMatchObject({ id: missed.id, message: 'two' });
    expect(sinces(emu, 'alerts').at(-1)).toBe(first.id);
    // A drop mid-stream: the next stream asks since the last message and repeats none.
    emu.control.dropStreams();
    await vi.waitFor(() => expect(sinces(emu, 'alerts').at(-1)).toBe(missed.id));
    await vi.waitFor(() => expect(emu.control.streams).toHaveLength(1));
    emu.control.publish('alerts', { message: 'three' });
    await vi.waitFor(() => expect(seen.events).toHaveLength(3));
    expect(seen.events.map((e) => e.args.message)).toEqual(['one', 'two', 'three']);
    seen.stop();
  });

  it('repeats none of a replay: the last ID gone from the cache, the server sends all it has', async () => {
    emu = await startNtfyEmulator();
    t = await ntfyApp(emu.url, { section: '  subscriptions: [alerts]\n' });
    const seen = notifications(t);
    emu.control.publish('alerts', { message: 'one' });
    emu.control.publish('alerts', { message: 'two' });
    await vi.waitFor(() => expect(seen.events).toHaveLength(2));
    // "two" expires from the server's cache: since=<its id> then means every cached message.
    emu.control.cache.pop();
    emu.control.dropStreams();
    await vi.waitFor(() => expect(sinces(emu, 'alerts')).toHaveLength(2));
    await vi.waitFor(() => expect(emu.control.streams).toHaveLength(1));
    emu.control.publish('alerts', { message: 'three' });
    await vi.waitFor(() => expect(seen.events).toHaveLength(3));
    expect(seen.events.map((e) => e.args.message)).toEqual(['one', 'two', 'three']);
    seen.stop();
  });

  it('before any message, resumes from the time the stream opened (since=<time>)', async () => {
    emu = await startNtfyEmulator();
    t = await ntfyApp(emu.url, { section: '  subscriptions: [quiet]\n' });
    const seen = notifications(t);
    const opened = sinces(emu, 'quiet');
    expect(opened).toEqual([null]);
    emu.control.dropStreams();
    await vi.waitFor(() => expect(sinces(emu, 'quiet')).toHaveLength(2));
    expect(sinces(emu, 'quiet')[1]).toMatch(/^\d{10}$/);
    emu.control.publish('quiet', { message: 'after' });
    await vi.waitFor(() => expect(seen.events.map((e) => e.args.message)).toEqual(['after']));
    seen.stop();
  });

  it('takes a silent stream for dead after keepalive_timeout_seconds and reopens it', async () => {
    emu = await startNtfyEmulator({ keepaliveMs: 60_000 });
    t = await ntfyApp(emu.url, {
      section: '  subscriptions: [alerts]\n  keepalive_timeout_seconds: 0.3\n',
    });
    await vi.waitFor(() => expect(sinces(emu, 'alerts').length).toBeGreaterThanOrEqual(2));
    // The server keeps streams alive with keepalives more often than the timeout: no reopening.
    await t.close();
    t = undefined;
    // Keepalives every 30 ms against a 0.6 s timeout: a loaded machine has room to be late.
    const lively = await startNtfyEmulator({ keepaliveMs: 30 });
    try {
      t = await ntfyApp(lively.url, {
        section: '  subscriptions: [alerts]\n  keepalive_timeout_seconds: 0.6\n',
      });
      const seen = notifications(t);
      // Well past the timeout (30 keepalives: 0.9 s), a message still arrives on the first stream.
      await vi.waitFor(() => expect(lively.control.keepalives).toBeGreaterThanOrEqual(30));
      lively.control.publish('alerts', { message: 'x' });
      await vi.waitFor(() => expect(seen.events).toHaveLength(1));
      expect(sinces(lively, 'alerts')).toEqual([null]);
      seen.stop();
    } finally {
      await t?.close();
      t = undefined;
      await lively.close();
    }
  });

  it('reports refused credentials naming ntfy.token, and a server that answers 500', async () => {
    emu = await startNtfyEmulator({ auth: { tokens: { [TOKEN]: 'phil' } } });
    t = await ntfyApp(emu.url, { section: '  token: tk_wrong\n  subscriptions: [alerts]\n' });
    expect(ntfyStatus(t)).toEqual({
      connected: false,
      detail: expect.stringMatching(
        /^alerts: ntfy at http:\/\/127\.0\.0\.1:\d+ refused subscribing to alerts: 401 unauthorized: check ntfy\.token; retrying in \d+ s$/,
      ),
    });
    await t.close();
    emu.control.failNext(500, 1, 'subscribe');
    t = await ntfyApp(emu.url, { section: `  token: ${TOKEN}\n  subscriptions: [alerts]\n` });
    expect(ntfyStatus(t)?.detail).toContain('500 internal server error');
    // The next attempt gets through.
    await vi.waitFor(() => expect(ntfyStatus(t!)?.connected).toBe(true));
  });

  it('does not hold the start up past timeout_seconds when the server does not answer', async () => {
    emu = await startNtfyEmulator();
    emu.control.stall(true);
    const started = Date.now();
    t = await ntfyApp(emu.url, { section: '  subscriptions: [alerts]\n' });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(ntfyStatus(t)?.detail).toContain('no answer within 1 s (ntfy.timeout_seconds)');
  });
});
