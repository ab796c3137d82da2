import { PipitError, defineAction, z } from '../api/index.ts';
import { compose } from './message.ts';
import type { SmtpSetup } from './transport.ts';
import { sendError, transportFor } from './transport.ts';

const Addresses = z.union([z.string().min(1), z.array(z.string().min(1))]);

/** What `mail.smtp.send` answers. */
const SendResult = z.object({
  message_id: z.string().describe('the Message-ID header of the mail'),
  accepted: z.array(z.string()).describe('the recipients the server took'),
  response: z.string().describe("the server's last reply"),
});

/**
 * `mail.smtp.send`: sends one e-mail, with Platypush's arguments (`to`, `from_`/`from`, `cc`,
 * `bcc`, `subject`, `body`, `body_type`, `attachments`, `headers`) and `html` for a text-and-HTML
 * mail. Unlike Platypush, cc and bcc really receive it, and the Bcc header is not sent.
 *
 * @example
 * await run('mail.smtp.send', { to: 'ada@example.com', subject: 'Backup', body: 'Done.' });
 * // { message_id: '<...@example.com>', accepted: ['ada@example.com'], response: '250 OK' }
 */
export const send = defineAction({
  name: 'send',
  summary: 'Sends an e-mail through the SMTP server of the mail.smtp section.',
  params: {
    to: Addresses.describe('recipients: an address, a comma-separated string, or a list'),
    subject: z.string().default('').describe('the subject'),
    body: z.string().default('').describe('the text (the HTML, with body_type html)'),
    body_type: z
      .enum(['plain', 'html'])
      .default('plain')
      .describe('what body is: plain text or HTML (default plain)'),
    html: z
      .string()
      .optional()
      .describe('an HTML version sent with the plain body (mail clients show one of the two)'),
    cc: Addresses.optional().describe('carbon-copy recipients'),
    bcc: Addresses.optional().describe('blind carbon-copy recipients (not shown to the others)'),
    from_: z
      .string()
      .min(3)
      .optional()
      .describe('the sender, "Name <address>" or an address (default: mail.smtp.from_)'),
    from: z.string().min(3).optional().describe('another name of from_, as Platypush takes'),
    attachments: z
      .union([z.string().min(1), z.array(z.string().min(1))])
      .optional()
      .describe("paths of files to attach: any file Pipit's user can read"),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe('more headers, name → value (a From header is the sender)'),
  },
  result: SendResult,
  run: async (args, { state, signal }: { state: SmtpSetup; signal: AbortSignal }) => {
    const message = await compose(args, state.config);
    const transport = transportFor(state);
    const onAbort = () => transport.close();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const info = await transport.sendMail({
        from: message.from,
        to: message.to,
        ...(message.cc.length ? { cc: message.cc } : {}),
        ...(message.bcc.length ? { bcc: message.bcc } : {}),
        subject: message.subject,
        ...(message.text !== undefined ? { text: message.text } : {}),
        ...(message.html !== undefined ? { html: message.html } : {}),
        headers: message.headers,
        attachments: message.attachments,
      });
      const refused = info.rejected.map(String);
      // As Platypush: a recipient refused is a failure, though the others got the mail.
      if (refused.length)
        throw new PipitError(
          'UPSTREAM_ERROR',
          `mail.smtp: ${state.where} refused ${refused.join(', ')} (the mail went to ${info.accepted.map(String).join(', ')})${info.rejectedErrors?.[0]?.response ? `: ${info.rejectedErrors[0].response}` : ''}`,
        );
      return {
        message_id: info.messageId,
        accepted: info.accepted.map(String),
        response: info.response,
      };
    } catch (err) {
      if (signal.aborted)
        throw new PipitError('ACTION_FAILED', 'mail.smtp.send: the caller gave up', { cause: err });
      throw sendError(err, state);
    } finally {
      signal.removeEventListener('abort', onAbort);
      transport.close();
      for (const a of message.attachments) a.content.destroy();
    }
  },
});
