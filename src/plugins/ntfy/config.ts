import { secret, z } from '../api/index.ts';

/** ntfy's topic names: letters, digits, `-` and `_`, 1 to 64 of them. */
export const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;

/** A topic name, checked as ntfy checks it. */
export const Topic = z
  .string()
  .regex(TOPIC, 'is not an ntfy topic: use 1-64 letters, digits, "-" or "_"');

/**
 * The `ntfy:` section, with Platypush's keys (`server_url`, `subscriptions`) and the credentials
 * ntfy takes: an access token, or a user name and password.
 *
 * @example
 * NtfyConfig.parse({ subscriptions: ['alerts'] }).server_url; // 'https://ntfy.sh'
 */
export const NtfyConfig = z
  .strictObject({
    server_url: z
      .url({ protocol: /^https?$/ })
      .default('https://ntfy.sh')
      .describe('the ntfy server, e.g. https://ntfy.example.com (default https://ntfy.sh)'),
    token: secret(
      z
        .string()
        .min(1)
        .optional()
        .describe('an ntfy access token (tk_...), sent as "Authorization: Bearer"'),
    ),
    username: z.string().min(1).optional().describe('an ntfy user, for protected topics'),
    password: secret(z.string().min(1).optional().describe("that user's password")),
    subscriptions: z
      .array(Topic)
      .default([])
      .describe('topics to listen to: each message raises a NotificationEvent'),
    timeout_seconds: z
      .number()
      .positive()
      .max(300)
      .default(10)
      .describe('how long to wait for the server to answer a publish or open a stream, in seconds'),
    keepalive_timeout_seconds: z
      .number()
      .positive()
      .max(3600)
      .default(120)
      .describe(
        'a stream silent this long is taken as dead and reopened (servers send a keepalive every 45 s)',
      ),
    reconnect_min_seconds: z
      .number()
      .positive()
      .max(3600)
      .default(1)
      .describe('the first wait before reopening a lost stream, in seconds (doubles each try)'),
    reconnect_max_seconds: z
      .number()
      .positive()
      .max(3600)
      .default(30)
      .describe('the longest wait between attempts to reopen a stream, in seconds'),
  })
  .superRefine((c, ctx) => {
    if (Boolean(c.username) !== Boolean(c.password))
      ctx.addIssue({
        code: 'custom',
        path: [c.username ? 'password' : 'username'],
        message: 'username and password go together: set both, or use token instead',
      });
  });

export type NtfyConfig = z.output<typeof NtfyConfig>;

/** The Authorization header of a token or a user and password (none: undefined). */
export function authorization(creds: {
  token?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
}): string | undefined {
  if (creds.token) return `Bearer ${creds.token}`;
  if (creds.username && creds.password)
    return `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`;
  return undefined;
}

/** The config keys to fix when the server refuses the credentials. */
export function credentialKeys(config: NtfyConfig): string {
  if (config.token) return 'ntfy.token';
  if (config.username) return 'ntfy.username and ntfy.password';
  return 'ntfy.token (or ntfy.username and ntfy.password): the topic is protected';
}
