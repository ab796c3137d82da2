import { afterEach, describe, expect, it } from 'vitest';
import type { NtfyEmulator, NtfyMessage } from './index.ts';
import { startNtfyEmulator } from './index.ts';

// Answers compared with the examples of ntfy's documentation (see README.md).

// https://docs.ntfy.sh/subscribe/api/#json-message-format ("Notification message").
const DOC_NOTIFICATION = {
  id: 'sPs71M8A2T',
  time: 1643935928,
  expires: 1643936928,
  event: 'message',
  topic: 'mytopic',
  priority: 5,
  tags: ['warning', 'skull'],
  click: 'https://homecam.mynet.lan/incident/1234',
  attachment: {
    name: 'camera.jpg',
    type: 'image/png',
    size: 33848,
    expires: 1643946728,
    url: 'https://ntfy.sh/file/sPs71M8A2T.png',
  },
  title: 'Unauthorized access detected',
  message: 'Movement detected in the yard. You better go check',
};
// Same page, "Notification message (minimal)", "Open message" and "Keepalive message".
const DOC_MINIMAL = {
  id: 'wze9zgqK41',
  time: 1638542110,
  expires: 1638543112,
  event: 'message',
  topic: 'phil_alerts',
  message: 'Remote access to phils-laptop detected. Act right away.',
};
const DOC_OPEN = { id: '2pgIAaGrQ8', time: 1638542215, event: 'open', topic: 'phil_alerts' };
const DOC_KEEPALIVE = {
  id: '371sevb0pD',
  time: 1638542275,
  event: 'keepalive',
  topic: 'phil_alerts',
};
// https://docs.ntfy.sh/publish/#publish-as-json (the request body of the example).
const DOC_PUBLISH_JSON = {
  topic: 'mytopic',
  message: 'Disk space is low at 5.1 GB',
  title: 'Low disk space alert',
  tags: ['warning', 'cd'],
  priority: 4,
  attach: 'https://filesrv.lan/space.jpg',
  filename: 'diskspace.jpg',
  click: 'https://homecamera.lan/xasds1h2xsSsa/',
  actions: [{ action: 'view', label: 'Admin panel', url: 'https://filesrv.lan/admin' }],
};
// The error JSON of server/errors.go (https://github.com/binwiederhier/ntfy/blob/main/server/errors.go).
const UNAUTHORIZED = {
  code: 40101,
  http: 401,
  error: 'unauthorized',
  link: 'https://ntfy.sh/docs/publish/#authentication',
};

const keysOf = (o: object) => Object.keys(o).sort();

/** Reads `count` lines of a JSON stream, then ends it. */
async function readStream(url: string, count: number, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const lines: NtfyMessage[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  while (lines.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0 && lines.length < count) {
      lines.push(JSON.parse(buffered.slice(0, nl)) as NtfyMessage);
      buffered = buffered.slice(nl + 1);
    }
  }
  await reader.cancel();
  return { status: res.status, type: res.headers.get('content-type'), lines };
}

describe('ntfy emulator', () => {
  let emu: NtfyEmulator;
  afterEach(() => emu?.close());

  it('publishes the JSON of "Publish as JSON" and answers the message object', async () => {
    emu = await startNtfyEmulator();
    const res = await fetch(emu.url, { method: 'POST', body: JSON.stringify(DOC_PUBLISH_JSON) });
    expect(res.status).toBe(200);
    const m = (await res.json()) as NtfyMessage;
    expect(m).toMatchObject({
      event: 'message',
      topic: 'mytopic',
      title: 'Low disk space alert',
      message: 'Disk space is low at 5.1 GB',
      priority: 4,
      tags: ['warning', 'cd'],
      click: 'https://homecamera.lan/xasds1h2xsSsa/',
      attachment: { name: 'diskspace.jpg', url: 'https://filesrv.lan/space.jpg' },
      actions: [
        { action: 'view', label: 'Admin panel', url: 'https://filesrv.lan/admin', clear: false },
      ],
    });
    expect(m.id).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(m.expires! - m.time).toBe(12 * 3600);
  });

  it('publishes with headers a message shaped as the docs\' "Notification message"', async () => {
    emu = await startNtfyEmulator();
    const res = await fetch(`${emu.url}/mytopic`, {
      method: 'PUT',
      headers: {
        Title: DOC_NOTIFICATION.title,
        Priority: 'urgent',
        Tags: 'warning,skull',
        Click: DOC_NOTIFICATION.click,
        Filename: 'camera.jpg',
        Message: DOC_NOTIFICATION.message,
      },
      body: Buffer.alloc(33848, 1),
    });
    const m = (await res.json()) as NtfyMessage;
    expect(keysOf(m)).toEqual(keysOf(DOC_NOTIFICATION));
    expect(keysOf(m.attachment!)).toEqual(keysOf(DOC_NOTIFICATION.attachment));
    expect(m).toMatchObject({ priority: 5, tags: DOC_NOTIFICATION.tags, topic: 'mytopic' });
    expect(m.attachment).toMatchObject({ name: 'camera.jpg', size: 33848 });
    const file = await fetch(m.attachment!.url);
    expect(Buffer.from(await file.arrayBuffer()).length).toBe(33848);
  });

  it('streams open, cached (since=) and live messages, and keepalives, as the docs show', async () => {
    emu = await startNtfyEmulator({ keepaliveMs: 50 });
    const first = emu.control.publish('phil_alerts', { message: DOC_MINIMAL.message });
    const res = await fetch(`${emu.url}/phil_alerts`, { method: 'POST', body: 'second' });
    const second = (await res.json()) as NtfyMessage;
    expect(keysOf(second)).toEqual(keysOf(DOC_MINIMAL));
    const stream = readStream(`${emu.url}/phil_alerts/json?since=${first.id}`, 4);
    await expect.poll(() => emu.control.streams.length).toBe(1);
    emu.control.publish('phil_alerts', { message: 'live' });
    const { status, type, lines } = await stream;
    expect(status).toBe(200);
    expect(type).toBe('application/x-ndjson; charset=utf-8');
    expect(lines.map((l) => l.event)).toEqual(['open', 'message', 'message', 'keepalive']);
    expect(keysOf(lines[0]!)).toEqual(keysOf(DOC_OPEN));
    expect(keysOf(lines[3]!)).toEqual(keysOf(DOC_KEEPALIVE));
    expect(lines.slice(1, 3).map((l) => l.message)).toEqual(['second', 'live']);
  });

  it('polls (poll=1: since=all by default, then closes), latest, and several topics', async () => {
    emu = await startNtfyEmulator();
    emu.control.publish('mytopic1', { message: 'for topic 1' });
    emu.control.publish('mytopic2', { message: 'for topic 2' });
    emu.control.publish('mytopic2', { message: 'again 2' });
    const poll = await fetch(`${emu.url}/mytopic1,mytopic2/json?poll=1`);
    const lines = (await poll.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as NtfyMessage);
    expect(lines.map((l) => l.message)).toEqual(['for topic 1', 'for topic 2', 'again 2']);
    const latest = await fetch(`${emu.url}/mytopic2/json?poll=1&since=latest`);
    expect(JSON.parse(await latest.text())).toMatchObject({ message: 'again 2' });
    const open = await readStream(`${emu.url}/mytopic1,mytopic2/json`, 1);
    expect(open.lines[0]).toMatchObject({ event: 'open', topic: 'mytopic1,mytopic2' });
    const bad = await fetch(`${emu.url}/mytopic1/json?since=yesterday`);
    expect(((await bad.json()) as { code: number }).code).toBe(40008);
  });

  it('protects topics: 401 without or with wrong credentials, Bearer, Basic and ?auth= work', async () => {
    emu = await startNtfyEmulator({
      auth: {
        users: { testuser: 'fakepassword' },
        tokens: { tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2: 'phil' },
        readOnly: ['phil'],
      },
    });
    const post = (headers: Record<string, string>, query = '') =>
      fetch(`${emu.url}/mysecrets${query}`, {
        method: 'POST',
        headers,
        body: 'Look ma, with auth',
      });
    const none = await post({});
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual(UNAUTHORIZED);
    const basic = `Basic ${Buffer.from('testuser:fakepassword').toString('base64')}`;
    expect((await post({ authorization: basic })).status).toBe(200);
    expect((await post({ authorization: 'Basic dGVzdHVzZXI6d3Jvbmc=' })).status).toBe(401);
    expect((await post({}, `?auth=${Buffer.from(basic).toString('base64url')}`)).status).toBe(200);
    // The docs' token belongs to a read-only user here: it may subscribe, not publish.
    const bearer = { authorization: 'Bearer tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2' };
    expect((await post(bearer)).status).toBe(403);
    const read = await fetch(`${emu.url}/mysecrets/json?poll=1`, { headers: bearer });
    expect(read.status).toBe(200);
  });

  it('refuses a JSON priority given as a name, as the server (an int field) does', async () => {
    emu = await startNtfyEmulator();
    const res = await fetch(emu.url, {
      method: 'POST',
      body: JSON.stringify({ topic: 'mytopic', message: 'x', priority: 'high' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: number }).code).toBe(40017);
    const header = await fetch(`${emu.url}/mytopic`, { method: 'POST', headers: { p: 'loud' } });
    expect(((await header.json()) as { code: number }).code).toBe(40007);
  });

  it('fails on demand (429, 500), drops streams, and keeps its cache across a restart', async () => {
    emu = await startNtfyEmulator();
    emu.control.failNext(429);
    const limited = await fetch(`${emu.url}/t`, { method: 'POST', body: 'x' });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({
      code: 42901,
      error: 'limit reached: too many requests',
    });
    emu.control.failNext(500, 1, 'subscribe');
    expect((await fetch(`${emu.url}/t/json?poll=1`)).status).toBe(500);
    const kept = emu.control.publish('t', { message: 'kept' });
    const reading = fetch(`${emu.url}/t/json`).then((r) => r.text());
    await expect.poll(() => emu.control.streams.length).toBe(1);
    emu.control.dropStreams();
    await expect(reading).rejects.toThrow();
    await emu.restart();
    const poll = await fetch(`${emu.url}/t/json?poll=1`);
    expect(await poll.text()).toContain(kept.id);
  });
});
