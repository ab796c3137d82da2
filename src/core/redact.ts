import { REDACTED, redactArgs } from './action.ts';
import type { ParamShape } from './action.ts';

// Keys whose values are credentials wherever they appear (an http.request's headers, a hook's
// event data, a procedure's arguments): matched whole, case-insensitively, `-`/`_` ignored.
const SECRET_KEY =
  /^(x_)?(pass(word|wd|phrase)?|secret|client_?secret|token|access_?token|refresh_?token|api_?key|auth|authori[sz]ation|proxy_?authori[sz]ation|cookie|set_?cookie|credentials?|private_?key)$/i;

// Arguments are at most 128 levels deep (core/json-limits.ts) from every transport; `run()` can pass
// anything, so the walk stops here and says so instead of recursing without end.
const MAX_DEPTH = 32;

/**
 * True for a key whose value is masked in the run history (`password`, `token`, `Authorization`,
 * `client_secret`, `api-key`...).
 *
 * @example
 * isSecretKey('Authorization'); // true
 * isSecretKey('volume'); // false
 */
export function isSecretKey(key: string): boolean {
  let secret = knownKeys.get(key);
  if (secret === undefined) {
    secret = SECRET_KEY.test(key.replaceAll('-', '_'));
    // The same few keys come back on every call: remember them (bounded: keys are client data).
    if (knownKeys.size >= MAX_KNOWN_KEYS) knownKeys.clear();
    knownKeys.set(key, secret);
  }
  return secret;
}
const knownKeys = new Map<string, boolean>();
const MAX_KNOWN_KEYS = 4096;

/**
 * Arguments as the run history keeps them: the action's declared secret parameters and every key
 * that names a credential, at any depth, replaced by `[redacted]`. The input is never modified; it
 * is returned as is when there is nothing to mask (the common case costs one walk, no copy).
 *
 * @example
 * redactForRecord({ url: 'u', headers: { Authorization: 'Bearer x' } });
 * // { url: 'u', headers: { Authorization: '[redacted]' } }
 */
export function redactForRecord(
  args: Record<string, unknown>,
  params?: ParamShape,
): Record<string, unknown> {
  const declared = params ? redactArgs(params, args) : args;
  return maskKeys(declared, 0) as Record<string, unknown>;
}

/**
 * Any value with the keys that name a credential masked at any depth (see {@link isSecretKey}):
 * what the run history keeps of an output (`utils.echo` returns its arguments; an HTTP answer may
 * carry a token). Returned as is when there is nothing to mask.
 *
 * @example
 * redactKeys({ user: 'ada', access_token: 'x' }); // { user: 'ada', access_token: '[redacted]' }
 */
export function redactKeys(value: unknown): unknown {
  return maskKeys(value, 0);
}

function maskKeys(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const masked = maskKeys(value[i], depth + 1);
      if (masked !== value[i]) (out ??= [...(value as unknown[])])[i] = masked;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const masked =
      item !== undefined && item !== REDACTED && isSecretKey(key)
        ? REDACTED
        : maskKeys(item, depth + 1);
    if (masked !== item) (out ??= { ...(value as Record<string, unknown>) })[key] = masked;
  }
  return out ?? value;
}
