// What every answer must look like (docs/api.md: Messages, Errors and statuses, WebSockets). Each check
// returns violations as "<kind>: <detail>" strings; the kind groups failures in reports.
import { DEVICE_ID } from './generators.ts';

/** Every status docs/api.md documents for the API. */
export const DOCUMENTED_STATUSES: ReadonlySet<number> = new Set([
  200, 400, 401, 403, 404, 408, 409, 412, 413, 415, 429, 500, 502, 503, 504,
]);

/** A JSON value parsed from an answer, or why it could not be. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const STACK_FRAME = /^\s*at .+(:\d+:\d+\)?|\(native\))$|node:internal|\/src\/[\w/-]+\.ts/m;

/** Violations in an `errors` list: not strings, or showing a stack trace or source path. */
export function checkErrors(errors: unknown[]): string[] {
  const out: string[] = [];
  for (const e of errors) {
    if (typeof e !== 'string')
      out.push(`shape: an error is not a string: ${clip(JSON.stringify(e))}`);
    else if (STACK_FRAME.test(e))
      out.push(`leak: an error shows a stack trace or path: ${clip(e)}`);
  }
  return out;
}

/**
 * Violations of the response message shape:
 * `{id, type: "response", target, origin, _timestamp, response: {output, errors: [strings]}}`.
 */
export function checkResponseMessage(body: unknown, target: 'http' | 'ws'): string[] {
  if (!isObject(body))
    return [`shape: the answer is not a JSON object: ${clip(JSON.stringify(body))}`];
  const out: string[] = [];
  if (typeof body.id !== 'string') out.push('shape: "id" is not a string');
  if (body.type !== 'response') out.push(`shape: "type" is ${clip(JSON.stringify(body.type))}`);
  if (body.target !== target)
    out.push(`shape: "target" is ${clip(JSON.stringify(body.target))}, not "${target}"`);
  if (body.origin !== DEVICE_ID)
    out.push(`shape: "origin" is ${clip(JSON.stringify(body.origin))}`);
  if (typeof body._timestamp !== 'number' || !Number.isFinite(body._timestamp))
    out.push('shape: "_timestamp" is not a number');
  const response = body.response;
  if (!isObject(response)) return [...out, 'shape: "response" is not an object'];
  if (!('output' in response)) out.push('shape: "response.output" is missing');
  if (!Array.isArray(response.errors)) return [...out, 'shape: "response.errors" is not a list'];
  return [...out, ...checkErrors(response.errors)];
}

/** The errors of a response message that passed {@link checkResponseMessage}. */
export function errorsOf(body: unknown): string[] {
  return ((body as { response: { errors: string[] } }).response.errors ?? []).map(String);
}

/** How deep a JSON text nests (brackets inside strings ignored); stops counting at `cap`. */
export function textDepth(text: string, cap = 1_000): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) max = depth;
      if (max >= cap) return max;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/**
 * What a client sent, read back for the checks that need it: the parsed message when the text is
 * a JSON object of moderate depth and size (the only ones whose `id` the server can be asked to
 * echo), else undefined.
 */
export function sentMessage(
  data: string | Uint8Array | undefined,
): Record<string, unknown> | undefined {
  if (data === undefined) return undefined;
  // As the server sees it: what was sent is UTF-8 (a lone surrogate went out as U+FFFD).
  const text = Buffer.from(data).toString();
  if (text.length > 2_000_000 || textDepth(text, 101) > 100) return undefined;
  const parsed = parseJson(text);
  return parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
}

/** The `id` the answer must echo: a string id of at most 128 characters. */
export function expectedId(sent: Record<string, unknown> | undefined): string | undefined {
  const id = sent?.id;
  return typeof id === 'string' && id.length <= 128 ? id : undefined;
}

/** JSON equality (after a JSON round trip of `a`, so that -0, NaN and Infinity read as JSON). */
export function sameJson(a: unknown, b: unknown): boolean {
  let normal: unknown;
  try {
    normal = JSON.parse(JSON.stringify(a)) as unknown;
  } catch {
    return true; // not serialisable here either: nothing to compare
  }
  return deepEqual(normal, b);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

/**
 * Checks shared by `POST /execute` answers and `/ws/requests` frames, given a well-shaped response
 * message: the id is echoed, no internal error, and `utils.echo` returns its arguments.
 */
export function checkExecuted(
  body: unknown,
  sent: Record<string, unknown> | undefined,
  opts: { understood: boolean },
): string[] {
  const out: string[] = [];
  const message = body as { id: string; response: { output: unknown; errors: string[] } };
  const errors = message.response.errors;
  if (errors.some((e) => /internal error/i.test(e)))
    out.push(`internal: the answer reports an internal error: ${clip(errors.join(' | '))}`);
  const id = expectedId(sent);
  if (opts.understood && id !== undefined && message.id !== id)
    out.push(
      `id: sent id ${clip(JSON.stringify(id))}, answered ${clip(JSON.stringify(message.id))}`,
    );
  if (
    opts.understood &&
    errors.length === 0 &&
    sent?.action === 'utils.echo' &&
    isObject(sent.args) &&
    sent.target === undefined &&
    !sameJson(sent.args, message.response.output)
  ) {
    out.push(
      `echo: utils.echo answered ${clip(JSON.stringify(message.response.output))} for args ${clip(JSON.stringify(sent.args))}`,
    );
  }
  return out;
}

/** A short, readable version of a long string: runs of one character or pattern collapsed. */
export function clip(text: string | undefined, max = 300): string {
  if (text === undefined) return 'undefined';
  const collapsed = collapseRuns(text.length > 100_000 ? text.slice(0, 100_000) : text);
  return collapsed.length > max ? `${collapsed.slice(0, max)}… (${text.length} chars)` : collapsed;
}

/** Collapses runs like "[[[[[" or '{"a":{"a":' into "[×5000" / '{"a":×5000'. */
export function collapseRuns(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    let best = { len: 1, count: 1 };
    for (let len = 1; len <= 10 && i + len <= text.length; len++) {
      const unit = text.slice(i, i + len);
      let count = 1;
      while (text.startsWith(unit, i + count * len)) count++;
      if (count >= 8 && count * len > best.count * best.len) best = { len, count };
    }
    if (best.count >= 8) {
      out += `${text.slice(i, i + best.len)}×${best.count}`;
      i += best.len * best.count;
    } else {
      out += text[i];
      i++;
    }
  }
  return out;
}
