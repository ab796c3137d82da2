import addressparser from 'nodemailer/lib/addressparser';
import { secret, z } from '../api/index.ts';
import { isAddress } from './addresses.ts';

/**
 * The `mail.smtp:` section, with the keys of Platypush's `mail.smtp` plugin (`server`, `port`,
 * `username`, `password`, `ssl`, `timeout`, `local_hostname`, `keyfile`, `certfile`) and what it
 * lacked: `starttls`, a default sender, and a way to trust a home server's own certificate.
 *
 * @example
 * MailSmtpConfig.parse({ server: 'smtp.example.com', starttls: true }).timeout; // 20
 */
export const MailSmtpConfig = z
  .strictObject({
    server: z.string().min(1).describe('the SMTP server: a host name or an address'),
    port: z
      .number()
      .int()
      .min(1)
      .max(65535)
      .optional()
      .describe('its port (default 465 with ssl, 587 with starttls, else 25)'),
    username: z.string().min(1).optional().describe('the user to log in as, if the server asks'),
    password: secret(z.string().min(1).optional().describe("that user's password")),
    ssl: z
      .boolean()
      .default(false)
      .describe('implicit TLS from the first byte (SMTPS, usually port 465)'),
    starttls: z
      .boolean()
      .default(false)
      .describe(
        'require STARTTLS (usually port 587); without ssl or starttls, TLS is still used when the server offers it',
      ),
    timeout: z
      .number()
      .positive()
      .max(300)
      .default(20)
      .describe(
        'how long to wait for the server at each step (connect, greeting, each reply), in seconds',
      ),
    from_: z
      .string()
      .min(3)
      .optional()
      .describe('the default sender ("Name <me@example.com>"; default: username, if an address)'),
    display_name: z
      .string()
      .min(1)
      .optional()
      .describe('the name shown with a sender given as a bare address'),
    local_hostname: z
      .string()
      .min(1)
      .optional()
      .describe('the name Pipit gives itself in EHLO (default: this host name)'),
    ca_file: z
      .string()
      .min(1)
      .optional()
      .describe("a PEM file of the certificate (or its CA) to trust: a home server's own"),
    verify_certificate: z
      .boolean()
      .default(true)
      .describe(
        'false accepts any certificate: anyone between Pipit and the server can then read the mail and the password',
      ),
    certfile: z
      .string()
      .min(1)
      .optional()
      .describe('a client certificate (PEM), for servers that ask for one'),
    keyfile: z.string().min(1).optional().describe('the private key (PEM) of certfile'),
  })
  .superRefine((c, ctx) => {
    const senders = c.from_ ? addressparser(c.from_, { flatten: true }) : [];
    if (c.from_ && (senders.length !== 1 || !isAddress(senders[0]?.address ?? '')))
      ctx.addIssue({
        code: 'custom',
        path: ['from_'],
        message: 'is not one e-mail address: write "Name <me@example.com>" or me@example.com',
      });
    if (c.ssl && c.starttls)
      ctx.addIssue({
        code: 'custom',
        path: ['starttls'],
        message:
          'ssl and starttls exclude each other: ssl for implicit TLS (465), starttls for 587',
      });
    if (Boolean(c.username) !== Boolean(c.password))
      ctx.addIssue({
        code: 'custom',
        path: [c.username ? 'password' : 'username'],
        message: 'username and password go together: set both, or neither',
      });
    if (Boolean(c.certfile) !== Boolean(c.keyfile))
      ctx.addIssue({
        code: 'custom',
        path: [c.certfile ? 'keyfile' : 'certfile'],
        message: 'certfile and keyfile go together',
      });
  });

export type MailSmtpConfig = z.output<typeof MailSmtpConfig>;

/** The port a section means: its own, or the usual one of its kind of TLS. */
export function portOf(config: MailSmtpConfig): number {
  return config.port ?? (config.ssl ? 465 : config.starttls ? 587 : 25);
}
