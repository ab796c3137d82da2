import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/service.ts';
import { makeApp } from '../../helpers/service.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, headerOf, mailApp } from './helpers.ts';
import type { TestSmtp } from './smtp-server.ts';
import { base64Of, startSilent, startSmtp } from './smtp-server.ts';

describe('mail.smtp.send to a real SMTP server', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp({
      auth: { user: 'pipit', pass: 'right password' },
      refuse: ['nobody@example.com'],
    });
    t = await mailApp(smtp.port, '  username: pipit\n  password: right password\n');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('sends a plain mail: envelope, headers and body as given, after a login', async () => {
    const res = await call(t, 'mail.smtp.send', {
      to: 'Ada <ada@example.com>, bob@example.com',
      subject: 'Backup finished',
      body: 'All 3 disks were copied.',
    });
    expect(res.errors).toEqual([]);
    const mail = smtp.received.at(-1)!;
    expect(mail.user).toBe('pipit');
    expect(mail.from).toBe('pipit@example.com');
    expect(mail.rcpt).toEqual(['ada@example.com', 'bob@example.com']);
    expect(headerOf(mail.raw, 'From')).toBe('Pipit <pipit@example.com>');
    expect(headerOf(mail.raw, 'To')).toBe('Ada <ada@example.com>, bob@example.com');
    expect(headerOf(mail.raw, 'Subject')).toBe('Backup finished');
    expect(headerOf(mail.raw, 'Content-Type')).toMatch(/^text\/plain/);
    expect(mail.raw).toContain('All 3 disks were copied.');
    expect(res.output).toMatchObject({
      accepted: ['ada@example.com', 'bob@example.com'],
      message_id: headerOf(mail.raw, 'Message-ID'),
    });
  });

  it('delivers to cc and bcc (the Bcc header not sent), with from_ and extra headers', async () => {
    const res = await call(t, 'mail.smtp.send', {
      to: ['ada@example.com'],
      cc: 'carol@example.com',
      bcc: ['dave@example.com'],
      from_: 'alerts@example.com',
      subject: 'Hi',
      body: 'x',
      headers: { 'X-Pipit-Test': 'yes' },
    });
    expect(res.errors).toEqual([]);
    const mail = smtp.received.at(-1)!;
    expect(mail.from).toBe('alerts@example.com');
    expect(mail.rcpt).toEqual(['ada@example.com', 'carol@example.com', 'dave@example.com']);
    expect(headerOf(mail.raw, 'Cc')).toBe('carol@example.com');
    expect(headerOf(mail.raw, 'Bcc')).toBeUndefined();
    expect(mail.raw).not.toContain('dave@example.com');
    expect(headerOf(mail.raw, 'X-Pipit-Test')).toBe('yes');
  });

  it('sends HTML: body_type html alone, or html beside the plain body as alternatives', async () => {
    await call(t, 'mail.smtp.send', {
      to: 'ada@example.com',
      body: '<p>Only <b>HTML</b></p>',
      body_type: 'html',
    });
    const only = smtp.received.at(-1)!;
    expect(headerOf(only.raw, 'Content-Type')).toMatch(/^text\/html/);
    expect(only.raw).toContain('<p>Only <b>HTML</b></p>');
    await call(t, 'mail.smtp.send', {
      to: 'ada@example.com',
      body: 'Plain words',
      html: '<p>Rich words</p>',
    });
    const both = smtp.received.at(-1)!;
    expect(headerOf(both.raw, 'Content-Type')).toMatch(/^multipart\/alternative/);
    expect(both.raw).toMatch(/Content-Type: text\/plain[\s\S]*Plain words/);
    expect(both.raw).toMatch(/Content-Type: text\/html[\s\S]*<p>Rich words<\/p>/);
  });

  it('attaches files by path, with their names and content', async () => {
    const report = join(t.dir, 'report.csv');
    writeFileSync(report, 'disk,free\nsda,12G\n');
    const res = await call(t, 'mail.smtp.send', {
      to: 'ada@example.com',
      subject: 'Report',
      body: 'Attached.',
      attachments: [report],
    });
    expect(res.errors).toEqual([]);
    const mail = smtp.received.at(-1)!;
    expect(headerOf(mail.raw, 'Content-Type')).toMatch(/^multipart\/mixed/);
    expect(mail.raw).toContain('filename=report.csv');
    expect(mail.raw).toContain(base64Of('disk,free\nsda,12G\n'));
  });

  it('refuses a missing attachment, naming it, and sends nothing', async () => {
    const before = smtp.received.length;
    const res = await call(t, 'mail.smtp.send', {
      to: 'ada@example.com',
      attachments: ['/nonexistent/report.pdf'],
    });
    expect(res.reason).toBe('INVALID_ARGUMENTS');
    expect(res.errors[0]).toBe('mail.smtp.send: attachment /nonexistent/report.pdf does not exist');
    expect(smtp.received.length).toBe(before);
  });

  it('refuses addresses that are not addresses, naming the argument and the value', async () => {
    const to = await call(t, 'mail.smtp.send', { to: 'ada@example.com, bob', body: 'x' });
    expect(to.reason).toBe('INVALID_ARGUMENTS');
    expect(to.errors[0]).toContain('"to" has "bob", which is not an e-mail address');
    const cc = await call(t, 'mail.smtp.send', { to: 'a@example.com', cc: ['x@'], body: 'x' });
    expect(cc.errors[0]).toContain('"cc" has "x@"');
    const from = await call(t, 'mail.smtp.send', { to: 'a@example.com', from_: 'me@home' });
    expect(from.errors[0]).toContain('"from_" has "me@home"');
    const header = await call(t, 'mail.smtp.send', {
      to: 'a@example.com',
      headers: { 'X-Evil': 'a\r\nBcc: victim@example.com' },
    });
    expect(header.reason).toBe('INVALID_ARGUMENTS');
  });

  it('reports a recipient the server refuses (550) with its reply', async () => {
    const res = await call(t, 'mail.smtp.send', { to: 'nobody@example.com', body: 'x' });
    expect(res.reason).toBe('UPSTREAM_ERROR');
    expect(res.errors[0]).toContain(
      `127.0.0.1:${smtp.port} refused the recipient nobody@example.com`,
    );
    expect(res.errors[0]).toContain('550 5.1.1 No such user');
    const some = await call(t, 'mail.smtp.send', {
      to: ['ada@example.com', 'nobody@example.com'],
      body: 'x',
    });
    expect(some.reason).toBe('UPSTREAM_ERROR');
    expect(some.errors[0]).toContain(
      'refused nobody@example.com (the mail went to ada@example.com)',
    );
  });

  it('refuses a wrong password, naming the keys to fix', async () => {
    const bad = await mailApp(smtp.port, '  username: pipit\n  password: wrong\n');
    try {
      const res = await call(bad, 'mail.smtp.send', { to: 'ada@example.com', body: 'x' });
      expect(res.reason).toBe('UPSTREAM_ERROR');
      expect(res.errors[0]).toContain('refused the login of "pipit"');
      expect(res.errors[0]).toContain('535');
      expect(res.errors[0]).toContain('check mail.smtp.username and mail.smtp.password');
      expect(res.errors[0]).not.toContain('wrong');
    } finally {
      await bad.close();
    }
  });

  it('asks for a login when the server wants one and none is configured', async () => {
    const anonymous = await mailApp(smtp.port);
    try {
      const res = await call(anonymous, 'mail.smtp.send', { to: 'ada@example.com', body: 'x' });
      expect(res.reason).toBe('UPSTREAM_ERROR');
      expect(res.errors[0]).toContain('set mail.smtp.username and mail.smtp.password');
    } finally {
      await anonymous.close();
    }
  });
});

describe('mail.smtp.send failures without a server that answers', () => {
  it('gives up with TIMEOUT within mail.smtp.timeout when the server never greets', async () => {
    const silent = await startSilent();
    const t = await mailApp(silent.port);
    try {
      const started = Date.now();
      const res = await call(t, 'mail.smtp.send', { to: 'ada@example.com', body: 'x' });
      expect(res.reason).toBe('TIMEOUT');
      expect(res.errors[0]).toContain(
        `127.0.0.1:${silent.port} did not answer within 1 s (mail.smtp.timeout)`,
      );
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      await t.close();
      await silent.close();
    }
  });

  it('says it cannot connect when nothing listens, and needs a sender', async () => {
    const gone = await startSilent();
    await gone.close();
    const t = await makeNoSender(gone.port);
    try {
      const nobody = await call(t, 'mail.smtp.send', { to: 'ada@example.com', body: 'x' });
      expect(nobody.reason).toBe('INVALID_ARGUMENTS');
      expect(nobody.errors[0]).toContain('no sender: give "from_", or set mail.smtp.from_');
      const res = await call(t, 'mail.smtp.send', {
        to: 'ada@example.com',
        from: 'me@example.com',
        body: 'x',
      });
      expect(res.reason).toBe('UPSTREAM_ERROR');
      expect(res.errors[0]).toContain(`cannot talk to 127.0.0.1:${gone.port}`);
      expect(res.errors[0]).toContain('ECONNREFUSED');
    } finally {
      await t.close();
    }
  });
});

function makeNoSender(port: number): Promise<TestApp> {
  return makeApp(`mail.smtp:\n  server: 127.0.0.1\n  port: ${port}\n  timeout: 1\n`);
}
