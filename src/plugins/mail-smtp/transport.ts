import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import type { Mail, SMTPSentMessageInfo, SMTPTransportOptions } from 'nodemailer';
import { PipitError } from '../api/index.ts';
import type { MailSmtpConfig } from './config.ts';
import { portOf } from './config.ts';

/** What a send needs of the section, files read once at start. */
export interface SmtpSetup {
  config: MailSmtpConfig;
  options: SMTPTransportOptions;
  /** `smtp.example.com:587`, for messages. */
  where: string;
}

function readPem(key: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new PipitError(
      'CONFIG_INVALID',
      `mail.smtp.${key}: cannot read ${path} (${(err as Error).message}): fix the path`,
      { cause: err },
    );
  }
}

/**
 * The transport options of a section: TLS as it asks (implicit, required STARTTLS, or STARTTLS
 * when offered), its timeout on every step, and no file or URL access for nodemailer itself (the
 * attachments are opened, after their checks, by the plugin).
 *
 * @example
 * const { options } = smtpSetup(config);
 * nodemailer.createTransport(options);
 */
export function smtpSetup(config: MailSmtpConfig): SmtpSetup {
  const ms = config.timeout * 1000;
  const port = portOf(config);
  const options: SMTPTransportOptions = {
    host: config.server,
    port,
    secure: config.ssl,
    requireTLS: config.starttls,
    ...(config.username ? { auth: { user: config.username, pass: config.password ?? '' } } : {}),
    ...(config.local_hostname ? { name: config.local_hostname } : {}),
    connectionTimeout: ms,
    greetingTimeout: ms,
    socketTimeout: ms,
    dnsTimeout: ms,
    disableFileAccess: true,
    disableUrlAccess: true,
    tls: {
      rejectUnauthorized: config.verify_certificate,
      ...(config.ca_file ? { ca: readPem('ca_file', config.ca_file) } : {}),
      ...(config.certfile ? { cert: readPem('certfile', config.certfile) } : {}),
      ...(config.keyfile ? { key: readPem('keyfile', config.keyfile) } : {}),
    },
  };
  return { config, options, where: `${config.server}:${port}` };
}

/** A transport for one message: Platypush too connects for each one. */
export function transportFor(setup: SmtpSetup): Mail<SMTPSentMessageInfo, SMTPTransportOptions> {
  return nodemailer.createTransport(setup.options);
}

interface MailerError extends Error {
  code?: string;
  response?: string;
  responseCode?: number;
  command?: string;
  rejected?: string[];
  cause?: { code?: string; message?: string };
}

const CERT_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ALTNAME/;

/**
 * The PipitError of a failed send, saying what to fix: TIMEOUT for a server that did not answer
 * within `timeout`, UPSTREAM_ERROR for a refused login (naming username and password), a refused
 * recipient (with the server's reply), an untrusted certificate (naming ca_file) or no connection.
 */
export function sendError(err: unknown, setup: SmtpSetup): PipitError {
  if (err instanceof PipitError) return err;
  const e = err as MailerError;
  const { where, config } = setup;
  const reply = e.response ? `: ${e.response}` : '';
  const code = e.code ?? '';
  const causeCode = e.cause?.code ?? (e as { reason?: string }).reason ?? '';
  const cause = {
    cause: err,
    details: { smtp_code: code, ...(e.responseCode ? { status: e.responseCode } : {}) },
  };
  if (code === 'ETIMEDOUT')
    return new PipitError(
      'TIMEOUT',
      `mail.smtp: ${where} did not answer within ${config.timeout} s (mail.smtp.timeout)${e.command && e.command !== 'CONN' ? `, waiting for the reply to ${e.command}` : ''}`,
      cause,
    );
  if (code === 'EAUTH' || code === 'ENOAUTH')
    return new PipitError(
      'UPSTREAM_ERROR',
      `mail.smtp: ${where} refused the login of ${JSON.stringify(config.username ?? '')}${reply}: check mail.smtp.username and mail.smtp.password`,
      cause,
    );
  if (e.responseCode === 530 || (e.responseCode === 550 && /auth/i.test(e.response ?? '')))
    return new PipitError(
      'UPSTREAM_ERROR',
      `mail.smtp: ${where} wants a login${reply}: set mail.smtp.username and mail.smtp.password`,
      cause,
    );
  if (code === 'EENVELOPE' && e.command === 'RCPT TO')
    return new PipitError(
      'UPSTREAM_ERROR',
      `mail.smtp: ${where} refused the recipient${(e.rejected?.length ?? 0) > 1 ? 's' : ''} ${(e.rejected ?? []).join(', ')}${reply}`,
      cause,
    );
  if (CERT_CODES.test(causeCode) || /certificate/i.test(e.message))
    return new PipitError(
      'UPSTREAM_ERROR',
      // Node adds a hint about --use-system-ca after a ';': the fix here is ca_file.
      `mail.smtp: the certificate of ${where} is not trusted (${e.message.split(';')[0]}): set mail.smtp.ca_file to its certificate or CA (or verify_certificate: false, which lets anyone on the way read the mail)`,
      cause,
    );
  if (code === 'ETLS')
    return new PipitError(
      'UPSTREAM_ERROR',
      `mail.smtp: ${where}: STARTTLS failed (${e.message})${config.starttls ? ': the server may not offer it; mail.smtp.starttls requires it' : ''}`,
      cause,
    );
  if (code === 'ECONNECTION' || code === 'ESOCKET' || code === 'EDNS')
    return new PipitError(
      'UPSTREAM_ERROR',
      `mail.smtp: cannot talk to ${where}: ${e.message}${config.ssl ? ' (ssl: true expects TLS from the first byte, as on port 465)' : ''}`,
      cause,
    );
  return new PipitError(
    'UPSTREAM_ERROR',
    `mail.smtp: ${where}: ${e.message}${reply && !e.message.includes(e.response ?? '') ? reply : ''}`,
    cause,
  );
}
