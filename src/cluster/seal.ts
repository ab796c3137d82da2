import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** The prefix of every sealed message: the format's name and version. */
export const SEAL_PREFIX = 'pipit1.';

const SIGNATURE_HEX = 64;

/** Why a message's seal was refused, before anything in it was read. */
export type SealFault = 'unsigned' | 'bad_signature';

/**
 * Signs and checks the messages instances exchange through Redis, with HMAC-SHA256 and the
 * cluster's shared secret. A sealed message is `pipit1.<64 hex HMAC>.<payload JSON>`: the HMAC
 * covers the payload's exact text, so nothing is re-serialised to check it and no field can be
 * changed, added or removed without the secret.
 *
 * @example
 * const seal = new Seal(secret);
 * const text = seal.seal('{"v":1,"kind":"event",...}');
 * seal.open(text); // { ok: true, json: '{"v":1,"kind":"event",...}' }
 */
export class Seal {
  readonly #key: KeyObject;
  // Former secrets (`redis.previous_secrets`, while rotating): accepted to verify, never to sign.
  readonly #previous: KeyObject[];

  constructor(secret: string, previous: readonly string[] = []) {
    this.#key = createSecretKey(Buffer.from(secret, 'utf8'));
    this.#previous = previous.map((p) => createSecretKey(Buffer.from(p, 'utf8')));
  }

  /** The sealed form of a payload (JSON text). */
  seal(json: string): string {
    return `${SEAL_PREFIX}${this.#mac(json).toString('hex')}.${json}`;
  }

  /** The payload of a sealed message, or why it is refused (no seal; a seal that does not match). */
  open(text: string): { ok: true; json: string } | { ok: false; fault: SealFault } {
    if (!text.startsWith(SEAL_PREFIX) || text.charCodeAt(SEAL_PREFIX.length + SIGNATURE_HEX) !== 46)
      return { ok: false, fault: 'unsigned' };
    const given = Buffer.from(
      text.slice(SEAL_PREFIX.length, SEAL_PREFIX.length + SIGNATURE_HEX),
      'hex',
    );
    const json = text.slice(SEAL_PREFIX.length + SIGNATURE_HEX + 1);
    if (given.length !== SIGNATURE_HEX / 2) return { ok: false, fault: 'bad_signature' };
    if (timingSafeEqual(given, this.#mac(json))) return { ok: true, json };
    for (const key of this.#previous)
      if (timingSafeEqual(given, this.#mac(json, key))) return { ok: true, json };
    return { ok: false, fault: 'bad_signature' };
  }

  #mac(json: string, key = this.#key): Buffer {
    return createHmac('sha256', key).update(json, 'utf8').digest();
  }
}

/**
 * A payload's JSON: `fields` plus one member whose value is JSON text already made (an event or a
 * response message), spliced in rather than parsed and serialised again.
 *
 * @example
 * payloadJson({ v: 1, kind: 'event' }, 'event', '{"type":"event"}'); // '{"v":1,"kind":"event","event":{"type":"event"}}'
 */
export function payloadJson(fields: Record<string, unknown>, key: string, json: string): string {
  const head = JSON.stringify(fields);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${JSON.stringify(key)}:${json}}`;
}
