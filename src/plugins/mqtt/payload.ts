import { jsonTextTooDeep } from '../../core/json-limits.ts';

/**
 * A received payload as events carry it: parsed JSON when it is JSON (as Platypush does), else the
 * text; a payload that is not UTF-8 is given as base64, with `encoding: "base64"`.
 *
 * @example
 * decodePayload(Buffer.from('{"on":true}')); // { msg: { on: true } }
 * decodePayload(Buffer.from('21.5')); // { msg: 21.5 }
 */
export function decodePayload(payload: Buffer): { msg: unknown; encoding?: 'base64' } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(payload);
  } catch {
    return { msg: payload.toString('base64'), encoding: 'base64' };
  }
  const trimmed = text.trim();
  if (trimmed !== '' && !jsonTextTooDeep(trimmed)) {
    try {
      return { msg: JSON.parse(trimmed) as unknown };
    } catch {
      // Plain text.
    }
  }
  return { msg: text };
}

/**
 * What is sent for a `msg` argument: a string as it is, anything else as JSON.
 *
 * @example
 * encodePayload({ on: true }); // '{"on":true}'
 */
export function encodePayload(msg: unknown): string {
  return typeof msg === 'string' ? msg : (JSON.stringify(msg) ?? 'null');
}
