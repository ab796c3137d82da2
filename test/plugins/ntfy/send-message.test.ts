import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startNtfyEmulator } from '../../../tools/ntfy-emulator/index.ts';
import type { NtfyEmulator, NtfyMessage } from '../../../tools/ntfy-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call, ntfyApp, writeFile } from './helpers.ts';

const TOKEN = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';

/** The JSON body of the last request the emulator saw. */
function lastJson(emu: NtfyEmulator): Record<string, unknown> {
  return JSON.parse(emu.control.requests.at(-1)!.body.toString('utf8')) as Record<string, unknown>;
}

describe('ntfy.send_message against the emulator', () => {
  let emu: NtfyEmulator;
  let t: TestApp;
  beforeAll(async () => {
    emu = await startNtfyEmulator({
      auth: { tokens: { [TOKEN]: 'phil' }, users: { testuser: 'fakepassword' }, readOnly: ['ro'] },
    });
    t = await ntfyApp(emu.url, { section: `  token: ${TOKEN}\n` });
  });
  afterEach(() => {
    emu.control.stall(false);
    emu.control.requests.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await emu?.close();
  });

  it("publishes as JSON with Platypush's argument names and answers ntfy's message", async () => {
    const res = await call(t, 'ntfy.send_message', {
      topic: 'mytopic',
      message: 'Disk space is low at 5.1 GB',
      title: 'Low disk space alert',
      priority: 'high',
      tags: ['warning', 'cd'],
      url: 'https://homecamera.lan/xasds1h2xsSsa/',
      attachment: 'https://filesrv.lan/space.jpg',
      filename: 'diskspace.jpg',
      actions: [{ action: 'view', label: 'Admin panel', url: 'https://filesrv.lan/admin' }],
      schedule: '30m',
    });
    expect(res.errors).toEqual([]);
    const seen = emu.control.requests.at(-1)!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/');
    expect(seen.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // ntfy's own names, and the priority as the number its JSON form takes.
    expect(lastJson(emu)).toEqual({
      topic: 'mytopic',
      message: 'Disk space is low at 5.1 GB',
      title: 'Low disk space alert',
      priority: 4,
      tags: ['warning', 'cd'],
      click: 'https://homecamera.lan/xasds1h2xsSsa/',
      attach: 'https://filesrv.lan/space.jpg',
      filename: 'diskspace.jpg',
      actions: [{ action: 'view', label: 'Admin panel', url: 'https://filesrv.lan/admin' }],
      delay: '30m',
    });
    const out = res.output as NtfyMessage;
    expect(out).toEqual(emu.control.cache.at(-1));
    expect(out).toMatchObject({
      event: 'message',
      topic: 'mytopic',
      priority: 4,
      click: 'https://homecamera.lan/xasds1h2xsSsa/',
      attachment: { name: 'diskspace.jpg', url: 'https://filesrv.lan/space.jpg' },
    });
  });

  it("takes ntfy's names too (click, attach, delay, tags as a string) and a numeric priority", async () => {
    const res = await call(t, 'ntfy.send_message', {
      topic: 'mytopic',
      message: 'hi',
      click: 'https://example.com',
      attach: 'https://example.com/f.apk',
      delay: '1h',
      tags: 'a, b',
      priority: 2,
      markdown: true,
    });
    expect(res.errors).toEqual([]);
    expect(lastJson(emu)).toMatchObject({
      click: 'https://example.com',
      attach: 'https://example.com/f.apk',
      delay: '1h',
      tags: ['a', 'b'],
      priority: 2,
      markdown: true,
    });
  });

  it('uploads a local file with a PUT to the topic, the text and a UTF-8 title as headers', async () => {
    const path = writeFile(t, 'report.txt', 'line one\nline two\n');
    const res = await call(t, 'ntfy.send_message', {
      topic: 'files',
      message: 'Nightly report',
      title: 'Rapport über Nächte',
      attachment: path,
      tags: ['page_facing_up'],
    });
    expect(res.errors).toEqual([]);
    const seen = emu.control.requests.at(-1)!;
    expect(seen.method).toBe('PUT');
    expect(seen.url).toBe('/files');
    expect(seen.body.toString()).toBe('line one\nline two\n');
    const out = res.output as NtfyMessage;
    expect(out).toMatchObject({
      message: 'Nightly report',
      title: 'Rapport über Nächte',
      tags: ['page_facing_up'],
      attachment: { name: 'report.txt', size: 18 },
    });
    const file = await fetch(out.attachment!.url);
    expect(await file.text()).toBe('line one\nline two\n');
  });

  it('refuses a local file that is not there, naming it, without calling the server', async () => {
    const res = await call(t, 'ntfy.send_message', {
      topic: 'files',
      attachment: '/nonexistent/dir/x.jpg',
    });
    expect(res.reason).toBe('INVALID_ARGUMENTS');
    expect(res.errors[0]).toContain('/nonexistent/dir/x.jpg does not exist');
    expect(emu.control.requests).toEqual([]);
  });

  it('refuses bad arguments clearly: a topic ntfy would refuse, an unknown priority, two clicks', async () => {
    const topic = await call(t, 'ntfy.send_message', { topic: 'no/slashes', message: 'x' });
    expect(topic.code).toBe('INVALID_ARGUMENTS');
    expect(topic.errors[0]).toContain('topic');
    const priority = await call(t, 'ntfy.send_message', { topic: 'a', priority: 'loud' });
    expect(priority.code).toBe('INVALID_ARGUMENTS');
    expect(priority.errors[0]).toContain('priority');
    const both = await call(t, 'ntfy.send_message', {
      topic: 'a',
      click: 'https://a',
      url: 'https://b',
    });
    expect(both.reason).toBe('INVALID_ARGUMENTS');
    expect(both.errors[0]).toContain('click or url, not both');
    expect(emu.control.requests).toEqual([]);
  });

  it('uses the username and password given to the call (Basic), and names them when refused', async () => {
    const ok = await call(t, 'ntfy.send_message', {
      topic: 'mysecrets',
      message: 'Look ma, with auth',
      username: 'testuser',
      password: 'fakepassword',
    });
    expect(ok.errors).toEqual([]);
    const basic = `Basic ${Buffer.from('testuser:fakepassword').toString('base64')}`;
    expect(emu.control.requests.at(-1)!.headers.authorization).toBe(basic);
    const bad = await call(t, 'ntfy.send_message', {
      topic: 'mysecrets',
      username: 'testuser',
      password: 'wrong',
    });
    expect(bad.reason).toBe('UPSTREAM_ERROR');
    expect(bad.errors[0]).toContain('401 unauthorized');
    expect(bad.errors[0]).toContain('the username and password given to ntfy.send_message');
    expect(bad.errors[0]).not.toContain('wrong');
  });

  it("answers 429 and 500 as UPSTREAM_ERROR with ntfy's own text", async () => {
    emu.control.failNext(429);
    const limited = await call(t, 'ntfy.send_message', { topic: 'a', message: 'x' });
    expect(limited.reason).toBe('UPSTREAM_ERROR');
    expect(limited.errors[0]).toContain('429 limit reached: too many requests');
    emu.control.failNext(500);
    const broken = await call(t, 'ntfy.send_message', { topic: 'a', message: 'x' });
    expect(broken.reason).toBe('UPSTREAM_ERROR');
    expect(broken.errors[0]).toContain('500 internal server error');
  });

  it('times out (TIMEOUT) when the server does not answer within timeout_seconds', async () => {
    emu.control.stall(true);
    const started = Date.now();
    const res = await call(t, 'ntfy.send_message', { topic: 'a', message: 'x' });
    expect(res.reason).toBe('TIMEOUT');
    expect(res.errors[0]).toContain('did not answer within 1 s (ntfy.timeout_seconds)');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports a server that is gone as UPSTREAM_ERROR "cannot reach", with its address', async () => {
    const gone = await startNtfyEmulator();
    await gone.close();
    const res = await call(t, 'ntfy.send_message', {
      topic: 'a',
      message: 'x',
      server_url: gone.url,
    });
    expect(res.reason).toBe('UPSTREAM_ERROR');
    expect(res.errors[0]).toContain(`cannot reach ${gone.url}`);
  });
});

describe('ntfy.send_message credentials from the config', () => {
  let emu: NtfyEmulator;
  afterAll(() => emu?.close());
  beforeAll(async () => {
    emu = await startNtfyEmulator({
      auth: { tokens: { [TOKEN]: 'phil' }, users: { ro: 'pw' }, readOnly: ['ro'] },
    });
  });

  it('names ntfy.token when the server refuses the token', async () => {
    const t = await ntfyApp(emu.url, { section: '  token: tk_wrong\n' });
    try {
      const res = await call(t, 'ntfy.send_message', { topic: 'a', message: 'x' });
      expect(res.reason).toBe('UPSTREAM_ERROR');
      expect(res.errors[0]).toBe(
        `ntfy at ${emu.url} refused publishing to a: 401 unauthorized: check ntfy.token`,
      );
    } finally {
      await t.close();
    }
  });

  it('names ntfy.username and ntfy.password when a read-only user publishes (403)', async () => {
    const t = await ntfyApp(emu.url, { section: '  username: ro\n  password: pw\n' });
    try {
      const res = await call(t, 'ntfy.send_message', { topic: 'a', message: 'x' });
      expect(res.reason).toBe('UPSTREAM_ERROR');
      expect(res.errors[0]).toContain('403 forbidden: check ntfy.username and ntfy.password');
    } finally {
      await t.close();
    }
  });

  it('never sends the configured token to another server_url a caller names', async () => {
    const other = await startNtfyEmulator({ auth: { tokens: { [TOKEN]: 'phil' } } });
    const t = await ntfyApp(emu.url, { section: `  token: ${TOKEN}\n` });
    try {
      const res = await call(t, 'ntfy.send_message', {
        topic: 'a',
        message: 'x',
        server_url: other.url,
      });
      expect(other.control.requests[0]!.headers.authorization).toBeUndefined();
      expect(res.errors[0]).toContain(
        `401 unauthorized: check the username and password arguments: the configured credentials go to ${emu.url} only`,
      );
    } finally {
      await t.close();
      await other.close();
    }
  });

  it('asks for credentials when a protected topic is published to without any', async () => {
    const t = await ntfyApp(emu.url);
    try {
      const res = await call(t, 'ntfy.send_message', { topic: 'a', message: 'x' });
      expect(res.errors[0]).toContain('check ntfy.token (or ntfy.username and ntfy.password)');
    } finally {
      await t.close();
    }
  });
});
