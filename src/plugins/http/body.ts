import { jsonTextTooDeep, PipitError } from '../api/index.ts';

/** How the response body is returned. */
export type OutputMode = 'auto' | 'text' | 'json' | 'binary';

/**
 * A request body from `json` or `data` (a string as it is, an object as an HTML form), with the
 * content type it implies when the caller set none.
 *
 * @example
 * requestBody({ data: { a: 1 } }); // { body: 'a=1', type: 'application/x-www-form-urlencoded' }
 */
export function requestBody(
  action: string,
  args: { json?: unknown; data?: string | Record<string, unknown> },
): { body: string; type: string } | undefined {
  if (args.json !== undefined && args.data !== undefined) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${action}: pass either "json" (sent as JSON) or "data" (a form or raw text), not both`,
    );
  }
  if (args.json !== undefined) return { body: JSON.stringify(args.json), type: 'application/json' };
  if (typeof args.data === 'string') return { body: args.data, type: 'text/plain; charset=utf-8' };
  if (args.data !== undefined) {
    return { body: formEncode(args.data).toString(), type: 'application/x-www-form-urlencoded' };
  }
  return undefined;
}

/**
 * Form or query-string encoding: lists repeat the key, null and undefined are left out, objects are
 * sent as JSON text.
 *
 * @example
 * formEncode({ tag: ['a', 'b'], n: 1 }).toString(); // 'tag=a&tag=b&n=1'
 */
export function formEncode(
  values: Record<string, unknown>,
  into = new URLSearchParams(),
): URLSearchParams {
  const text = (v: unknown): string =>
    typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
      ? `${v}`
      : (JSON.stringify(v) ?? '');
  for (const [key, value] of Object.entries(values)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && item !== undefined) into.append(key, text(item));
    }
  }
  return into;
}

/**
 * Reads a response body, refusing one larger than `max` bytes (checked on Content-Length first,
 * then while reading, after decompression).
 *
 * @example
 * const bytes = await readLimited(response, 10 * 1024 * 1024, () => 'http.get: GET http://x/');
 */
export async function readLimited(
  response: Response,
  max: number,
  what: () => string,
): Promise<Buffer> {
  const tooLarge = (size: string) =>
    new PipitError(
      'UPSTREAM_ERROR',
      `${what()}: the response body is ${size}, over http.max_response_bytes (${max}): raise http.max_response_bytes, or ask for less`,
      { details: { limit: max } },
    );
  const declared = Number(response.headers.get('content-length'));
  if (declared > max) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(`${declared} bytes`);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    total += next.value.length;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(`more than ${max} bytes`);
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks, total);
}

const TEXT_TYPES =
  /^(text\/|application\/(xml|javascript|ecmascript|x-www-form-urlencoded|yaml|x-yaml|toml|graphql)|[^;]*\+xml)/i;
const JSON_TYPES = /^(application\/json|[^;]*\+json)\s*(;|$)/i;

function utf8OrUndefined(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The body as the action returns it: with `auto`, JSON when the response says it is JSON (and parses),
 * text for text types (and for untyped bodies that are valid UTF-8), base64 otherwise.
 *
 * @example
 * decodeBody(Buffer.from('{"a":1}'), 'application/json', 'auto', 'http.get'); // { body: { a: 1 } }
 */
export function decodeBody(
  bytes: Buffer,
  contentType: string,
  mode: OutputMode,
  what: string,
): { body: unknown; encoding?: 'base64' } {
  // HEAD, 204, 304 and other empty answers: nothing to decode, whatever `mode` asks for.
  if (bytes.length === 0) return { body: '' };
  const base64 = () => ({ body: bytes.toString('base64'), encoding: 'base64' as const });
  if (mode === 'binary') return base64();
  if (mode === 'text') return { body: bytes.toString('utf8') };
  const text = utf8OrUndefined(bytes);
  const wantsJson = mode === 'json' || JSON_TYPES.test(contentType);
  if (wantsJson && text !== undefined && text.trim() !== '' && !jsonTextTooDeep(text)) {
    try {
      return { body: JSON.parse(text) as unknown };
    } catch {
      // Not JSON after all: fall through to text.
    }
  }
  if (mode === 'json') {
    throw new PipitError(
      'UPSTREAM_ERROR',
      `${what}: the response is not JSON (${contentType || 'no content type'}); use output: "text" to get it as it is`,
    );
  }
  if (text !== undefined && (TEXT_TYPES.test(contentType) || wantsJson || !contentType))
    return { body: text };
  if (/charset=/i.test(contentType)) return { body: bytes.toString('utf8') };
  return base64();
}
