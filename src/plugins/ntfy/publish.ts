import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { PipitError } from '../api/index.ts';

/** What a message is made of, in ntfy's own names, once the action's arguments are read. */
export interface Outgoing {
  topic: string;
  message: string;
  title?: string | undefined;
  priority?: number | undefined;
  tags?: string[] | undefined;
  click?: string | undefined;
  /** A URL (ntfy fetches nothing: clients do) or a local file (uploaded as the body). */
  attachment?: string | undefined;
  filename?: string | undefined;
  actions?: Array<Record<string, unknown>> | undefined;
  email?: string | undefined;
  delay?: string | undefined;
  markdown?: boolean | undefined;
  icon?: string | undefined;
}

/** The request of a publish, without the server and credentials. */
export interface PublishRequest {
  /** Path under the server URL: `/` (JSON) or `/<topic>` (a file as the body). */
  path: string;
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string | ReadableStream<Uint8Array>;
}

const isUrl = (text: string) => /^https?:\/\//i.test(text);

/**
 * The request that publishes `m`: "publish as JSON" to the server's root, or, for a local file,
 * a PUT of the file to `/<topic>` with the other fields as headers (docs.ntfy.sh/publish/).
 *
 * @example
 * await publishRequest({ topic: 'alerts', message: 'Disk full', priority: 4 });
 * // { path: '/', method: 'POST', body: '{"topic":"alerts","message":"Disk full","priority":4}', ... }
 */
export async function publishRequest(m: Outgoing): Promise<PublishRequest> {
  if (!m.attachment || isUrl(m.attachment)) {
    const json = {
      topic: m.topic,
      message: m.message,
      ...(m.title ? { title: m.title } : {}),
      ...(m.priority ? { priority: m.priority } : {}),
      ...(m.tags?.length ? { tags: m.tags } : {}),
      ...(m.click ? { click: m.click } : {}),
      ...(m.attachment ? { attach: m.attachment } : {}),
      ...(m.filename ? { filename: m.filename } : {}),
      ...(m.actions?.length ? { actions: m.actions } : {}),
      ...(m.email ? { email: m.email } : {}),
      ...(m.delay ? { delay: m.delay } : {}),
      ...(m.markdown ? { markdown: true } : {}),
      ...(m.icon ? { icon: m.icon } : {}),
    };
    return {
      path: '/',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    };
  }
  const path = m.attachment.replace(/^~(?=\/|$)/, homedir());
  const size = await fileSize(path);
  const headers: Record<string, string> = {
    'content-length': String(size),
    'x-filename': header(m.filename || basename(path)),
    // The body is the file: the text goes in X-Message (Platypush dropped it).
    ...(m.message ? { 'x-message': header(m.message) } : {}),
    ...(m.title ? { 'x-title': header(m.title) } : {}),
    ...(m.priority ? { 'x-priority': String(m.priority) } : {}),
    ...(m.tags?.length ? { 'x-tags': header(m.tags.join(',')) } : {}),
    ...(m.click ? { 'x-click': header(m.click) } : {}),
    ...(m.actions?.length ? { 'x-actions': header(JSON.stringify(m.actions)) } : {}),
    ...(m.email ? { 'x-email': header(m.email) } : {}),
    ...(m.delay ? { 'x-delay': header(m.delay) } : {}),
    ...(m.markdown ? { 'x-markdown': 'yes' } : {}),
    ...(m.icon ? { 'x-icon': header(m.icon) } : {}),
  };
  return {
    path: `/${m.topic}`,
    method: 'PUT',
    headers,
    body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>,
  };
}

async function fileSize(path: string): Promise<number> {
  try {
    const s = await stat(path);
    if (!s.isFile())
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `ntfy.send_message: attachment ${path} is not a file (give a file, or an http(s) URL)`,
      );
    return s.size;
  } catch (err) {
    if (err instanceof PipitError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})`;
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `ntfy.send_message: attachment ${path} ${why}: give a file Pipit's user can read, or an http(s) URL`,
      { cause: err },
    );
  }
}

/**
 * A header value that survives HTTP: printable ASCII as it is, anything else as an RFC 2047
 * encoded word, which ntfy decodes (its "List of all parameters" says so).
 */
export function header(value: string): string {
  return /^[\x20-\x7e]*$/.test(value)
    ? value
    : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
