import { REDACTED, redactArgs } from './action.ts';
import type { ParamShape } from './action.ts';
import { MAX_JSON_DEPTH } from './json-limits.ts';
import { isSecretName } from '../lib/secret-names.ts';
import { maskSecretText } from './secret-text.ts';

// Arguments are at most 128 levels deep (core/json-limits.ts) from every transport; `run()` can pass
// anything, so the walk stops here and says so instead of recursing without end.
const MAX_DEPTH = 32;

/**
 * True for a key whose value is masked in the run history and in what `/ws/events` subscribers
 * get (`password`, `token`, `Authorization`, `X-Auth-Token`, `client_secret`, `api-key`,
 * `github_token`...): see `isSecretName` and the list in secret-names.ts.
 *
 * @example
 * isSecretKey('Authorization'); // true
 * isSecretKey('volume'); // false
 */
export function isSecretKey(key: string): boolean {
  let secret = knownKeys.get(key);
  if (secret === undefined) {
    secret = isSecretName(key);
    // The same few keys come back on every call: remember them (bounded: keys are client data).
    if (knownKeys.size >= MAX_KNOWN_KEYS) knownKeys.clear();
    knownKeys.set(key, secret);
  }
  return secret;
}
const knownKeys = new Map<string, boolean>();
const MAX_KNOWN_KEYS = 4096;

/**
 * Values as the run history keeps them: every key that names a credential (see
 * {@link isSecretKey}), at any depth, replaced by `[redacted]`, credentials inside strings masked
 * (URLs' secret query values and user info, `Bearer …`, JWTs: see `maskSecretText`), and for arguments the action's
 * declared secret parameters too (`utils.echo` returns its arguments; an HTTP answer may carry a
 * token). The input is never modified; it is returned as is when there is nothing to mask (the
 * common case costs one walk, no copy).
 *
 * The same walk bounds the length of the JSON text of what it returns: the history embeds values
 * whose bound is under its limit as they are, in one `JSON.stringify` per batch, and measures the
 * others exactly. `size` is never below the real length; it is `Infinity` for a value whose JSON
 * is its own to decide (`toJSON`, as Dates and Buffers have) or that JSON cannot write (BigInt).
 *
 * @example
 * const masker = new SizedMasker();
 * masker.mask({ token: 'x', n: 1 }); // { token: '[redacted]', n: 1 }
 * masker.size >= '{"token":"[redacted]","n":1}'.length; // true
 * masker.maskArgs({ url: 'u', headers: { Authorization: 'Bearer x' } });
 * // { url: 'u', headers: { Authorization: '[redacted]' } }
 */
export class SizedMasker {
  /** The bound for the value last returned by {@link mask} or {@link maskArgs}. */
  size = 0;
  readonly #maxDepth: number;

  /** `maxDepth`: levels walked; deeper values become `[too deep]` (the history keeps 32). */
  constructor(maxDepth = MAX_DEPTH) {
    this.#maxDepth = maxDepth;
  }

  mask(value: unknown): unknown {
    this.size = 0;
    return this.#walk(value, 0);
  }

  maskArgs(args: Record<string, unknown>, params?: ParamShape): Record<string, unknown> {
    return this.mask(params ? redactArgs(params, args) : args) as Record<string, unknown>;
  }

  // Bounds: a string's JSON is at most 6 characters a UTF-16 unit (\uXXXX) and its quotes; a
  // number's at most 25 (-0.0000012345678901234567); an object member adds its key, quotes, colon
  // and comma. Values that JSON writes as null or leaves out (undefined, functions) count as null.
  #walk(value: unknown, depth: number): unknown {
    switch (typeof value) {
      case 'string': {
        const masked = maskSecretText(value);
        this.size += masked.length * 6 + 2;
        return masked;
      }
      case 'number':
        this.size += 25;
        return value;
      case 'boolean':
        this.size += 5;
        return value;
      case 'bigint':
        this.size = Infinity;
        return value;
      case 'object':
        break;
      default:
        this.size += 4;
        return value;
    }
    if (value === null) {
      this.size += 4;
      return value;
    }
    if (depth >= this.#maxDepth) {
      this.size += TOO_DEEP.length + 2;
      return TOO_DEEP;
    }
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') this.size = Infinity;
    this.size += 2;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        this.size += 1;
        const masked = this.#walk(value[i], depth + 1);
        if (masked !== value[i]) (out ??= [...(value as unknown[])])[i] = masked;
      }
      return out ?? value;
    }
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      this.size += key.length * 6 + 4;
      let masked: unknown;
      if (item !== undefined && item !== REDACTED && isSecretKey(key)) {
        masked = REDACTED;
        this.size += REDACTED.length + 2;
      } else masked = this.#walk(item, depth + 1);
      if (masked !== item) (out ??= { ...(value as Record<string, unknown>) })[key] = masked;
    }
    return out ?? value;
  }
}

const TOO_DEEP = '[too deep]';

// Events are JSON under the depth limit already (json-limits.ts): walked whole, never cut.
const shared = new SizedMasker(MAX_JSON_DEPTH + 2);

/**
 * A copy of `value` with its credentials masked as the run history masks them (see
 * {@link SizedMasker}): for what leaves the service's own hands, such as the events `/ws/events`
 * subscribers get. `value` itself when there is nothing to mask.
 *
 * @example
 * maskSecrets({ headers: { 'X-Gitlab-Token': 't' } }); // { headers: { 'X-Gitlab-Token': '[redacted]' } }
 */
export function maskSecrets<T>(value: T): T {
  return shared.mask(value) as T;
}
