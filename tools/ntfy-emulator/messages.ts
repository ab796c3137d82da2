import { randomBytes } from 'node:crypto';

// ntfy's message object and the rules of its publish parameters, as docs.ntfy.sh/publish/ and
// docs.ntfy.sh/subscribe/api/ ("JSON message format") describe them.

/** One action button as the server stores and sends it (an `id` added, `clear` false unless set). */
export interface NtfyAction {
  id: string;
  action: string;
  label: string;
  clear: boolean;
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  intent?: string;
  extras?: Record<string, string>;
}

/** An attachment: `type`, `size` and `expires` only when the file was uploaded to the server. */
export interface NtfyAttachment {
  name: string;
  type?: string;
  size?: number;
  expires?: number;
  url: string;
}

/** A message of the JSON stream: `open`, `keepalive`, `message` (or `poll_request`). */
export interface NtfyMessage {
  id: string;
  time: number;
  expires?: number;
  event: 'open' | 'keepalive' | 'message' | 'poll_request';
  topic: string;
  title?: string;
  message?: string;
  priority?: number;
  tags?: string[];
  click?: string;
  icon?: string;
  actions?: NtfyAction[];
  attachment?: NtfyAttachment;
  content_type?: string;
}

/** Topic names: `^[-_A-Za-z0-9]{1,64}$`. */
export const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;

/** Message bodies longer than this become attachments (docs: "Limitations"). */
export const MESSAGE_LIMIT = 4096;

/** How long messages stay in the cache (ntfy's default `cache-duration`: 12h). */
export const CACHE_SECONDS = 12 * 3600;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random message identifier: 12 letters and digits, as the server's. */
export function messageId(): string {
  return [...randomBytes(12)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** True for a string shaped as a message identifier (what `since=` takes as an ID). */
export function isMessageId(text: string): boolean {
  return /^[A-Za-z0-9]{12}$/.test(text);
}

export const now = (): number => Math.floor(Date.now() / 1000);

/** A new message of `event` on `topic`. */
export function newMessage(event: NtfyMessage['event'], topic: string): NtfyMessage {
  return { id: messageId(), time: now(), event, topic };
}

/**
 * The priority of a header or query value: 1-5, min/low/default/high/max/urgent; '' is none (0).
 * Returns undefined for anything else (the server's 40007).
 */
export function parsePriority(value: string): number | undefined {
  const names: Record<string, number> = {
    '': 0,
    '1': 1,
    min: 1,
    '2': 2,
    low: 2,
    '3': 3,
    default: 3,
    '4': 4,
    high: 4,
    '5': 5,
    max: 5,
    urgent: 5,
  };
  return names[value.trim().toLowerCase()];
}

/** Comma-separated tags, trimmed, empty ones dropped. */
export function parseTags(value: string): string[] {
  return value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/**
 * A header value as ntfy reads it: RFC 2047 encoded words (`=?UTF-8?B?...?=` or `?Q?`) decoded,
 * anything else as it is (docs: "List of all parameters", the info box on UTF-8 headers).
 */
export function decodeHeader(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
    (_all, charset: string, enc: string, text: string) => {
      const bytes =
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) =>
                  String.fromCharCode(parseInt(hex, 16)),
                ),
              'latin1',
            );
      return charset.toLowerCase() === 'utf-8' ? bytes.toString('utf8') : bytes.toString('latin1');
    },
  );
}

/**
 * Actions given as JSON (an array) in `X-Actions` or the `actions` key of a JSON publish, checked
 * and completed as the server does; undefined when they are not valid (the server's 40018).
 */
export function parseActions(input: unknown): NtfyAction[] | undefined {
  const list = typeof input === 'string' ? tryJson(input) : input;
  if (!Array.isArray(list) || list.length > 3) return undefined;
  const out: NtfyAction[] = [];
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const a = item as Record<string, unknown>;
    if (!['view', 'broadcast', 'http'].includes(String(a.action))) return undefined;
    if (typeof a.label !== 'string' || a.label === '') return undefined;
    if ((a.action === 'view' || a.action === 'http') && typeof a.url !== 'string') return undefined;
    out.push({
      id: messageId(),
      action: String(a.action),
      label: a.label,
      clear: a.clear === true,
      ...(typeof a.url === 'string' ? { url: a.url } : {}),
      ...(typeof a.method === 'string' ? { method: a.method } : {}),
      ...(isStringMap(a.headers) ? { headers: a.headers } : {}),
      ...(typeof a.body === 'string' ? { body: a.body } : {}),
      ...(typeof a.intent === 'string' ? { intent: a.intent } : {}),
      ...(isStringMap(a.extras) ? { extras: a.extras } : {}),
    });
  }
  return out;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isStringMap(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}

/** The file name of an attachment URL (`https://x/flower.jpg?x=1` → `flower.jpg`). */
export function nameFromUrl(url: string): string {
  try {
    return new URL(url).pathname.split('/').pop() || 'attachment';
  } catch {
    return 'attachment';
  }
}

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  txt: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
  json: 'application/json',
  apk: 'application/vnd.android.package-archive',
};

/** A MIME type by file extension (the real server sniffs the content; close enough here). */
export function typeOf(name: string): string {
  return TYPES[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** The extension the server gives a stored file, from its type. */
export function extensionOf(type: string): string {
  const found = Object.entries(TYPES).find(([, t]) => t === type);
  return found ? `.${found[0]}` : '.bin';
}

/**
 * What `since=` means: all cached messages, none, the latest one, those after a message ID, or
 * those at or after a Unix time (a duration is turned into one). undefined: not valid (40008).
 */
export type Since =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'latest' }
  | { kind: 'id'; id: string }
  | { kind: 'time'; time: number };

export function parseSince(value: string, poll: boolean): Since | undefined {
  if (value === '') return poll ? { kind: 'all' } : { kind: 'none' };
  if (value === 'all' || value === 'none' || value === 'latest') return { kind: value };
  if (isMessageId(value)) return { kind: 'id', id: value };
  if (/^\d+$/.test(value)) return { kind: 'time', time: Number(value) };
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(value);
  if (!m) return undefined;
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  return { kind: 'time', time: now() - Math.floor(Number(m[1]) * unit) };
}

/** The cached messages of `topics` that `since` selects, in publishing order. */
export function selectSince(
  cache: readonly NtfyMessage[],
  topics: readonly string[],
  since: Since,
): NtfyMessage[] {
  const out: NtfyMessage[] = [];
  for (const topic of topics) {
    const mine = cache.filter((m) => m.topic === topic);
    if (since.kind === 'none') continue;
    if (since.kind === 'latest') {
      out.push(...mine.slice(-1));
      continue;
    }
    if (since.kind === 'time') {
      out.push(...mine.filter((m) => m.time >= since.time));
      continue;
    }
    if (since.kind === 'id') {
      // An ID no longer (or never) cached selects every cached message, as the server does.
      const at = cache.findIndex((m) => m.id === since.id);
      out.push(...(at < 0 ? mine : cache.slice(at + 1).filter((m) => m.topic === topic)));
      continue;
    }
    out.push(...mine);
  }
  return out;
}
