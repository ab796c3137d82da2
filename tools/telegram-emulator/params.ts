import type { IncomingMessage } from 'node:http';

/** A file posted with multipart/form-data. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A request's parameters, from the query string and the body, whatever its content type. */
export interface Params {
  values: Record<string, unknown>;
  files: Record<string, UploadedFile>;
}

/** Bodies above this are refused (the Bot API takes uploads of up to 50 MB). */
export const MAX_BODY_BYTES = 55 * 1024 * 1024;

/** What a request's body could not be read as: the Bot API's 400 description. */
export class BadParams extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BadParams('Request Entity Too Large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Reads the parameters of a Bot API request, in the four ways the "Making requests" section lists:
 * the URL query string, application/x-www-form-urlencoded, application/json and
 * multipart/form-data (files land in `files`). Values other than JSON's arrive as strings.
 *
 * @example
 * const { values, files } = await readParams(req, new URL(req.url!, 'http://x'));
 */
export async function readParams(req: IncomingMessage, url: URL): Promise<Params> {
  const values: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const files: Record<string, UploadedFile> = {};
  const body = await readBody(req);
  if (!body.length) return { values, files };
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new BadParams("Bad Request: can't parse JSON object");
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new BadParams("Bad Request: can't parse JSON object");
    Object.assign(values, parsed);
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    Object.assign(values, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
  } else if (type.startsWith('multipart/form-data')) {
    // The platform's own multipart parser (undici's), as a browser-style Request reads it.
    let form: FormData;
    try {
      form = await new Request('http://emulator/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type']! },
        body: new Uint8Array(body),
      }).formData();
    } catch {
      throw new BadParams("Bad Request: can't parse multipart/form-data");
    }
    const entries: Array<[string, FormDataEntryValue]> = [];
    form.forEach((value, name) => entries.push([name, value]));
    for (const [name, value] of entries) {
      if (typeof value === 'string') values[name] = value;
      else
        files[name] = {
          filename: value.name,
          contentType: value.type || 'application/octet-stream',
          bytes: Buffer.from(await value.arrayBuffer()),
        };
    }
  }
  return { values, files };
}

/** An Integer parameter, sent as a number or (form, query) as text; undefined when absent. */
export function intParam(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n)) throw new BadParams(`Bad Request: invalid ${name} specified`);
  return n;
}

/** A Boolean parameter (`true`, `"true"`, `"1"`). */
export function boolParam(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}

/** A JSON-serialized object or array parameter, given as JSON or (form, query) as JSON text. */
export function jsonParam(value: unknown, name: string): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new BadParams(`Bad Request: can't parse ${name} JSON object`);
  }
}

/** A String parameter; numbers are taken as their text (Telegram does so for chat_id). */
export function stringParam(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
}
