import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import { call, headerOf, mailApp } from './helpers.ts';
import type { TestSmtp } from './smtp-server.ts';
import { selfSigned } from '../../helpers/self-signed.ts';
import { startSmtp } from './smtp-server.ts';

describe('mail.smtp over TLS, with a self-signed certificate', () => {
  let cert: Awaited<ReturnType<typeof selfSigned>>;
  const servers: TestSmtp[] = [];
  beforeAll(async () => {
    cert = await selfSigned();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    cert?.cleanup();
  });
  const server = async (opts: Parameters<typeof startSmtp>[0]) => {
    const s = await startSmtp({ tls: { key: cert.key, cert: cert.cert }, ...opts });
    servers.push(s);
    return s;
  };

  it('sends over implicit TLS (ssl: true) trusting ca_file, with a login', async () => {
    const smtp = await server({ secure: true, auth: { user: 'pipit', pass: 'pw' } });
    const t = await mailApp(
      smtp.port,
      `  ssl: true\n  ca_file: ${cert.certPath}\n  username: pipit\n  password: pw\n`,
    );
    try {
      const res = await call(t, 'mail.smtp.send', {
        to: 'ada@example.com',
        subject: 'Over TLS',
        body: 'x',
      });
      expect(res.errors).toEqual([]);
      expect(headerOf(smtp.received.at(-1)!.raw, 'Subject')).toBe('Over TLS');
      expect(smtp.received.at(-1)!.user).toBe('pipit');
    } finally {
      await t.close();
    }
  });

  it('upgrades with STARTTLS (starttls: true) trusting ca_file', async () => {
    const smtp = await server({});
    const t = await mailApp(smtp.port, `  starttls: true\n  ca_file: ${cert.certPath}\n`);
    try {
      const res = await call(t, 'mail.smtp.send', { to: 'ada@example.com', body: 'secret' });
      expect(res.errors).toEqual([]);
      expect(smtp.upgraded).toBe(true);
      expect(smtp.received.at(-1)!.raw).toContain('secret');
    } finally {
      await t.close();
    }
  });

  it('refuses an untrusted certificate, naming ca_file; verify_certificate: false accepts it', async () => {
    const smtp = await server({ secure: true });
    const strict = await mailApp(smtp.port, '  ssl: true\n');
    const lax = await mailApp(smtp.port, '  ssl: true\n  verify_certificate: false\n');
    try {
      const res = await call(strict, 'mail.smtp.send', { to: 'ada@example.com', body: 'x' });
      expect(res.reason).toBe('UPSTREAM_ERROR');
      expect(res.errors[0]).toContain(`the certificate of 127.0.0.1:${smtp.port} is not trusted`);
      expect(res.errors[0]).toContain('set mail.smtp.ca_file');
      expect(smtp.received).toHaveLength(0);
      const ok = await call(lax, 'mail.smtp.send', { to: 'ada@example.com', body: 'x' });
      expect(ok.errors).toEqual([]);
      expect(smtp.received).toHaveLength(1);
    } finally {
      await strict.close();
      await lax.close();
    }
  });

  it('fails clearly when starttls is required and the server does not offer it', async () => {
    const smtp = await server({ noStarttls: true });
    const t = await mailApp(smtp.port, `  starttls: true\n  ca_file: ${cert.certPath}\n`);
    try {
      const res = await call(t, 'mail.smtp.send', { to: 'ada@example.com', body: 'x' });
      expect(res.reason).toBe('UPSTREAM_ERROR');
      expect(res.errors[0]).toContain('STARTTLS');
      expect(res.errors[0]).toContain('mail.smtp.starttls requires it');
      expect(smtp.received).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('refuses a section with both ssl and starttls, a sender that is not an address, or a ca_file that cannot be read', async () => {
    await expect(mailApp(1, '  ssl: true\n  starttls: true\n')).rejects.toThrow(
      /starttls[\s\S]*ssl and starttls exclude each other/,
    );
    await expect(
      makeApp('mail.smtp:\n  server: mail.lan\n  from_: Home <home@lan>\n'),
    ).rejects.toThrow(/from_[\s\S]*is not one e-mail address/);
    await expect(mailApp(1, '  ca_file: /nonexistent/ca.pem\n')).rejects.toThrow(
      /mail\.smtp\.ca_file: cannot read \/nonexistent\/ca\.pem/,
    );
  });
});
