import { createReadStream } from 'node:fs';
import { access, constants, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { PipitError } from '../api/index.ts';
import type { Mailbox } from './addresses.ts';
import { format, isAddress, mailboxes } from './addresses.ts';
import type { MailSmtpConfig } from './config.ts';

/** What `mail.smtp.send` was given, after its schema. */
export interface SendArgs {
  to: string | string[];
  cc?: string | string[] | undefined;
  bcc?: string | string[] | undefined;
  from_?: string | undefined;
  from?: string | undefined;
  subject: string;
  body: string;
  body_type: 'plain' | 'html';
  html?: string | undefined;
  attachments?: string | string[] | undefined;
  headers?: Record<string, string> | undefined;
}

/** A message ready for nodemailer, and the envelope's recipients (Bcc included, not shown). */
export interface Composed {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text?: string;
  html?: string;
  headers: Record<string, string>;
  attachments: Array<{ filename: string; content: Readable }>;
  recipients: string[];
}

const FIELD_NAME = /^[!-9;-~]+$/;

/**
 * Checks `args` and builds the message: the sender (the call's `from_`/`from`, a `From` header,
 * then the config's `from_`, then `username` if it is an address), the recipients, the body (text,
 * HTML, or both as alternatives) and the attachments, each a readable file.
 *
 * @example
 * const m = await compose({ to: 'ada@example.com', subject: 'Hi', body: 'Hello', body_type: 'plain' }, config);
 */
export async function compose(args: SendArgs, config: MailSmtpConfig): Promise<Composed> {
  const headers: Record<string, string> = {};
  let headerFrom: string | undefined;
  for (const [name, value] of Object.entries(args.headers ?? {})) {
    if (!FIELD_NAME.test(name) || /[\r\n]/.test(value))
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `mail.smtp.send: header ${JSON.stringify(name)} is not a header name and one-line value`,
      );
    // As Platypush: a From header is the sender.
    if (name.toLowerCase() === 'from') headerFrom = value;
    else headers[name] = value;
  }
  const from = sender(args.from_ ?? args.from ?? headerFrom, config);
  const to = mailboxes('to', args.to);
  if (!to.length)
    throw new PipitError('INVALID_ARGUMENTS', 'mail.smtp.send: "to" names nobody: give an address');
  const cc = mailboxes('cc', args.cc);
  const bcc = mailboxes('bcc', args.bcc);
  if (/[\r\n]/.test(args.subject))
    throw new PipitError('INVALID_ARGUMENTS', 'mail.smtp.send: "subject" must be one line');
  if (args.html !== undefined && args.body_type === 'html')
    throw new PipitError(
      'INVALID_ARGUMENTS',
      'mail.smtp.send: body_type "html" makes body the HTML: give html, or body_type html, not both',
    );
  const bodies =
    args.body_type === 'html'
      ? { html: args.body }
      : { text: args.body, ...(args.html !== undefined ? { html: args.html } : {}) };
  const paths =
    typeof args.attachments === 'string' ? [args.attachments] : (args.attachments ?? []);
  const files = await Promise.all(paths.map(readable));
  return {
    from: format(from),
    to: to.map(format),
    cc: cc.map(format),
    bcc: bcc.map(format),
    subject: args.subject,
    ...bodies,
    headers,
    attachments: files.map((path) => ({
      filename: basename(path),
      content: createReadStream(path),
    })),
    recipients: [...to, ...cc, ...bcc].map((m) => m.address),
  };
}

function sender(given: string | undefined, config: MailSmtpConfig): Mailbox {
  const text =
    given ?? config.from_ ?? (config.username && isAddress(config.username) ? config.username : '');
  if (!text)
    throw new PipitError(
      'INVALID_ARGUMENTS',
      'mail.smtp.send: no sender: give "from_", or set mail.smtp.from_ (or a username that is an address)',
    );
  const [from, ...more] = mailboxes('from_', text);
  if (!from || more.length)
    throw new PipitError('INVALID_ARGUMENTS', 'mail.smtp.send: "from_" must be one address');
  return { name: from.name || (config.display_name ?? ''), address: from.address };
}

/** The absolute path of an attachment, once it is known to be a file Pipit's user can read. */
async function readable(path: string): Promise<string> {
  const full = resolve(path.replace(/^~(?=\/|$)/, homedir()));
  try {
    if (!(await stat(full)).isFile())
      throw new PipitError('INVALID_ARGUMENTS', `mail.smtp.send: attachment ${full} is not a file`);
    await access(full, constants.R_OK);
    return full;
  } catch (err) {
    if (err instanceof PipitError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? "cannot be read by Pipit's user"
          : `cannot be read (${code ?? String(err)})`;
    throw new PipitError('INVALID_ARGUMENTS', `mail.smtp.send: attachment ${full} ${why}`, {
      cause: err,
    });
  }
}
