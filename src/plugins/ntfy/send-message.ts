import { PipitError, defineAction, secret, z } from '../api/index.ts';
import { Topic, authorization, credentialKeys } from './config.ts';
import { ntfyJson } from './http.ts';
import { publishRequest } from './publish.ts';
import type { NtfyState } from './state.ts';

const PRIORITIES: Record<string, number> = {
  min: 1,
  low: 2,
  default: 3,
  high: 4,
  max: 5,
  urgent: 5,
};

const Priority = z
  .union([
    z.number().int().min(1).max(5),
    z.enum(['min', 'low', 'default', 'high', 'max', 'urgent', '1', '2', '3', '4', '5']),
  ])
  .transform((p) => (typeof p === 'number' ? p : (PRIORITIES[p] ?? Number(p))))
  .describe('1-5, or min, low, default, high, max (urgent)');

const Action = z.looseObject({
  action: z.enum(['view', 'broadcast', 'http']).describe('view, broadcast or http'),
  label: z.string().min(1).describe('the button text'),
});

/** Two names for one thing (ntfy's and Platypush's): one of them, and the same if both. */
function either(a: string | undefined, b: string | undefined, names: string): string | undefined {
  if (a !== undefined && b !== undefined && a !== b)
    throw new PipitError('INVALID_ARGUMENTS', `ntfy.send_message: give ${names}, not both`);
  return a ?? b;
}

/**
 * `ntfy.send_message`: publishes a notification and answers ntfy's message object. Platypush's
 * argument names (`url`, `attachment`, `schedule`, `server_url`, `username`, `password`) and
 * ntfy's (`click`, `attach`, `delay`) are both taken.
 *
 * @example
 * await run('ntfy.send_message', { topic: 'alerts', message: 'Disk full', priority: 'high' });
 * // { id: 'sPs71M8A2Tcd', time: 1643935928, event: 'message', topic: 'alerts', ... }
 */
export const sendMessage = defineAction({
  name: 'send_message',
  summary: 'Sends a notification to an ntfy topic; answers the message ntfy stored.',
  params: {
    topic: Topic.describe('the topic to publish to'),
    message: z.string().default('').describe('the text of the notification'),
    title: z.string().optional().describe('the notification title'),
    priority: Priority.optional(),
    tags: z
      .union([z.array(z.string().min(1)), z.string()])
      .optional()
      .describe('tags (a list, or comma-separated); emoji short codes show as emojis'),
    click: z.string().min(1).optional().describe('what to open when the notification is tapped'),
    url: z.string().min(1).optional().describe("Platypush's name of click"),
    attach: z.url().optional().describe('the URL of a file to attach'),
    attachment: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Platypush's: an http(s) URL, or the path of a local file to upload (any file Pipit's user can read)",
      ),
    filename: z.string().min(1).optional().describe('the name the attachment shows with'),
    actions: z.array(Action).max(3).optional().describe('up to three action buttons'),
    email: z.string().min(3).optional().describe('also forward the notification to this e-mail'),
    schedule: z
      .union([z.string().min(1), z.number().int().positive()])
      .optional()
      .describe('deliver later: a UNIX time, a duration (30m, 3h) or words ("tomorrow, 3pm")'),
    delay: z.string().min(1).optional().describe("ntfy's name of schedule"),
    markdown: z.boolean().optional().describe('the message is Markdown'),
    icon: z.url().optional().describe('the URL of an icon for the notification'),
    server_url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe('another ntfy server for this message (default: ntfy.server_url)'),
    username: z.string().min(1).optional().describe('a user for this message (instead of config)'),
    password: secret(z.string().min(1).optional().describe("that user's password")),
  },
  run: async (args, { state, signal }: { state: NtfyState; signal: AbortSignal }) => {
    const click = either(args.click, args.url, 'click or url');
    const attachment = either(args.attach, args.attachment, 'attach or attachment');
    const delay = either(
      args.delay,
      args.schedule === undefined ? undefined : String(args.schedule),
      'schedule or delay',
    );
    if (Boolean(args.username) !== Boolean(args.password))
      throw new PipitError(
        'INVALID_ARGUMENTS',
        'ntfy.send_message: username and password go together: give both, or neither to use the config',
      );
    const tags =
      typeof args.tags === 'string' ? args.tags.split(',').map((t) => t.trim()) : args.tags;
    const req = await publishRequest({
      topic: args.topic,
      message: args.message,
      title: args.title,
      priority: args.priority,
      tags: tags?.filter(Boolean),
      click,
      attachment,
      filename: args.filename,
      actions: args.actions,
      email: args.email,
      delay,
      markdown: args.markdown,
      icon: args.icon,
    });
    const { config } = state;
    const server = (args.server_url ?? config.server_url).replace(/\/+$/, '');
    // The configured token or password goes to the configured server only, never to another
    // server_url a caller names.
    const ownServer = new URL(server).origin === new URL(config.server_url).origin;
    const auth = args.username
      ? authorization({ username: args.username, password: args.password })
      : ownServer
        ? authorization(config)
        : undefined;
    return ntfyJson({
      url: `${server}${req.path}`,
      method: req.method,
      headers: { ...req.headers, ...(auth ? { authorization: auth } : {}) },
      body: req.body,
      timeoutMs: config.timeout_seconds * 1000,
      signal,
      what: `publishing to ${args.topic}`,
      credentials: args.username
        ? 'the username and password given to ntfy.send_message'
        : ownServer
          ? credentialKeys(config)
          : `the username and password arguments: the configured credentials go to ${new URL(config.server_url).origin} only`,
    });
  },
});
