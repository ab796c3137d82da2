// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import { MailSmtpConfig } from './config.ts';
import { head } from './head.ts';
import { send } from './send.ts';
import type { SmtpSetup } from './transport.ts';
import { smtpSetup } from './transport.ts';

export default definePlugin<MailSmtpConfig, SmtpSetup>({
  ...head,
  summary: 'Sends e-mail through an SMTP server (Platypush mail.smtp): send.',
  config: MailSmtpConfig,
  actions: [send],
  // The certificate files are read now: a wrong path stops the start, naming its key. No link is
  // kept: each mail opens its own connection, as Platypush's did.
  init: ({ config }) => smtpSetup(config),
});
