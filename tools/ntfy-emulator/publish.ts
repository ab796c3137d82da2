import type { NtfyError } from './errors.ts';
import { ERRORS } from './errors.ts';
import type { NtfyMessage } from './messages.ts';
import {
  CACHE_SECONDS,
  MESSAGE_LIMIT,
  TOPIC,
  decodeHeader,
  extensionOf,
  nameFromUrl,
  newMessage,
  parseActions,
  parsePriority,
  parseTags,
  typeOf,
} from './messages.ts';

// Publishing (docs.ntfy.sh/publish/): a PUT/POST to /<topic> with the parameters as headers or
// query parameters and the body as the message (or a file), or a PUT/POST of a JSON object to the
// root URL ("Publish as JSON"), which the server turns into the first form.

/** A stored file of an uploaded attachment, served at `/file/<id><ext>`. */
export interface StoredFile {
  type: string;
  data: Buffer;
}

/** What a publish gives: the message (and a file to store), or an error answer. */
export type Published = { message: NtfyMessage; file?: StoredFile } | { error: NtfyError };

/** Reads one parameter by its aliases: a header (any case) first, then a lowercase query param. */
export type ParamReader = (...names: string[]) => string | undefined;

/** The parameters of "List of all parameters", each by its aliases. */
const ALIASES = {
  message: ['x-message', 'message', 'm'],
  title: ['x-title', 'title', 't'],
  priority: ['x-priority', 'priority', 'prio', 'p'],
  tags: ['x-tags', 'tags', 'tag', 'ta'],
  delay: ['x-delay', 'delay', 'x-at', 'at', 'x-in', 'in'],
  actions: ['x-actions', 'actions', 'action'],
  click: ['x-click', 'click'],
  attach: ['x-attach', 'attach', 'a'],
  markdown: ['x-markdown', 'markdown', 'md'],
  icon: ['x-icon', 'icon'],
  filename: ['x-filename', 'filename', 'file', 'f'],
  email: ['x-email', 'x-e-mail', 'email', 'e-mail', 'mail', 'e'],
} as const;

/**
 * A message published to `/<topic>` with `body`; `baseUrl` makes the URLs of uploaded files.
 * Delayed delivery and e-mail forwarding are accepted and ignored (the message is sent at once).
 */
export function publishToTopic(
  topic: string,
  body: Buffer,
  param: ParamReader,
  baseUrl: string,
): Published {
  if (!TOPIC.test(topic)) return { error: ERRORS.topicInvalid };
  const read = (key: keyof typeof ALIASES) => {
    const value = param(...ALIASES[key]);
    return value === undefined ? undefined : decodeHeader(value);
  };
  const m = newMessage('message', topic);
  m.expires = m.time + CACHE_SECONDS;
  const title = read('title');
  if (title) m.title = title;
  const priority = parsePriority(read('priority') ?? '');
  if (priority === undefined) return { error: ERRORS.priorityInvalid };
  if (priority) m.priority = priority;
  const tags = parseTags(read('tags') ?? '');
  if (tags.length) m.tags = tags;
  const click = read('click');
  if (click) m.click = click;
  const icon = read('icon');
  if (icon) m.icon = icon;
  const actions = read('actions');
  if (actions) {
    const parsed = parseActions(actions);
    if (!parsed) return { error: ERRORS.actionsInvalid };
    m.actions = parsed;
  }
  if (['1', 'yes', 'true'].includes((read('markdown') ?? '').toLowerCase()))
    m.content_type = 'text/markdown';
  const attach = read('attach');
  const filename = read('filename');
  if (attach) {
    if (!/^https?:\/\//.test(attach)) return { error: ERRORS.attachmentUrlInvalid };
    m.attachment = { name: filename || nameFromUrl(attach), url: attach };
  }
  const paramMessage = read('message');
  const text = body.toString('utf8');
  const isText = Buffer.from(text, 'utf8').equals(body) && body.length <= MESSAGE_LIMIT;
  if (attach || (!filename && isText)) {
    m.message = body.length ? text.trim() : (paramMessage ?? '');
    if (!m.message) m.message = m.attachment ? `You received a file: ${m.attachment.name}` : '';
    if (!m.message) m.message = 'triggered';
    return { message: m };
  }
  // The body is a file: a name given, or too long / not UTF-8 for a message.
  const name = filename || 'attachment.bin';
  const type = typeOf(name);
  m.attachment = {
    name,
    type,
    size: body.length,
    expires: m.time + 3 * 3600,
    url: `${baseUrl}/file/${m.id}${extensionOf(type)}`,
  };
  m.message = paramMessage || `You received a file: ${name}`;
  return { message: m, file: { type, data: body } };
}

/**
 * A JSON object PUT/POSTed to the root URL: read as the server's `publishMessage` struct, whose
 * `priority` is a number (a string there is "request body must be message JSON", 40017).
 */
export function publishJson(body: Buffer, baseUrl: string): Published {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { error: ERRORS.messageJsonInvalid };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { error: ERRORS.messageJsonInvalid };
  const j = json as Record<string, unknown>;
  const strings = ['topic', 'title', 'message', 'click', 'icon', 'attach', 'filename', 'email'];
  for (const key of [...strings, 'delay', 'call', 'cache', 'firebase'])
    if (j[key] !== undefined && typeof j[key] !== 'string')
      return { error: ERRORS.messageJsonInvalid };
  if (j.priority !== undefined && !Number.isInteger(j.priority))
    return { error: ERRORS.messageJsonInvalid };
  if (
    j.tags !== undefined &&
    !(Array.isArray(j.tags) && j.tags.every((t) => typeof t === 'string'))
  )
    return { error: ERRORS.messageJsonInvalid };
  if (j.markdown !== undefined && typeof j.markdown !== 'boolean')
    return { error: ERRORS.messageJsonInvalid };
  if (j.actions !== undefined && !Array.isArray(j.actions))
    return { error: ERRORS.messageJsonInvalid };
  const topic = typeof j.topic === 'string' ? j.topic : '';
  if (!TOPIC.test(topic)) return { error: ERRORS.topicInvalid };
  // As the server: each field becomes its header, the message the body.
  const headers: Record<string, string> = {};
  if (j.title) headers['x-title'] = j.title as string;
  if (j.priority) headers['x-priority'] = (j.priority as number).toFixed(0);
  if (Array.isArray(j.tags) && j.tags.length) headers['x-tags'] = j.tags.join(',');
  for (const key of ['attach', 'filename', 'click', 'icon', 'email', 'delay'] as const)
    if (j[key]) headers[`x-${key}`] = j[key] as string;
  if (j.markdown === true) headers['x-markdown'] = 'yes';
  if (Array.isArray(j.actions) && j.actions.length)
    headers['x-actions'] = JSON.stringify(j.actions);
  const message = typeof j.message === 'string' && j.message !== '' ? j.message : 'triggered';
  const param: ParamReader = (...names) =>
    names.map((n) => headers[n]).find((v) => v !== undefined);
  return publishToTopic(topic, Buffer.from(message, 'utf8'), param, baseUrl);
}
