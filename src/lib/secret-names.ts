/**
 * The names whose values are credentials wherever they appear: object keys in the run history and
 * in events shown to `/ws/events` subscribers, header names, and query (or form) parameter names
 * in URLs and text. Written here in snake case; a name matches whatever its case and separators
 * (`X-Auth-Token`, `x_auth_token`, `xAuthToken` and `XAUTHTOKEN` are one name), with or without a
 * leading `x-`. docs/plugins/runs.md lists them for users.
 */
export const SECRET_NAMES = [
  'password',
  'pass',
  'passwd',
  'passphrase',
  'secret',
  'client_secret',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'api_key',
  'api_token',
  'auth',
  'authorization',
  'proxy_authorization',
  'authorisation',
  'proxy_authorisation',
  'bearer',
  'credential',
  'credentials',
  'private_key',
  'private_token',
  'auth_token',
  'session',
  'session_id',
  'jwt',
  'cookie',
  'cookies',
  'set_cookie',
  'signature',
  'hub_signature',
  'hub_signature_256',
  'gitlab_token',
] as const;

/**
 * The last word of a name that makes it secret (`github_token`, `db_password`, `webhookSecret`,
 * `stripe_api_key`): words are split at `-`, `_` and lower-to-upper case changes. Whole words
 * only, so `tokens_used`, `max_tokens`, `token_type`, `password_hint`, `author` and `secretary`
 * are kept. A pagination cursor named `next_page_token` is masked too: the price of catching
 * every `*_token`.
 */
export const SECRET_LAST_WORDS = ['token', 'secret', 'password', 'passwd', 'passphrase', 'apikey'];

/** The last two words that make a name secret (`stripe_api_key`, `ssh_private_key`). */
export const SECRET_LAST_PAIRS = ['api_key', 'private_key', 'secret_key', 'session_id'];

const squash = (name: string) => name.replaceAll('_', '');
const EXACT = new Set(SECRET_NAMES.map(squash));
const LAST_WORDS = new Set(SECRET_LAST_WORDS);
const LAST_PAIRS = new Set(SECRET_LAST_PAIRS);

// Names are client data: at most this long is looked at (no credential name is longer).
const MAX_NAME = 64;

/**
 * True when `name` is one of {@link SECRET_NAMES} or ends with one of {@link SECRET_LAST_WORDS} or
 * {@link SECRET_LAST_PAIRS}, compared without case, `-` and `_` alike.
 *
 * @example
 * isSecretName('X-Auth-Token'); // true
 * isSecretName('apitoken');     // true
 * isSecretName('tokens_used');  // false
 */
export function isSecretName(name: string): boolean {
  if (name.length > MAX_NAME || name.length < 3) return false;
  // The same few names come back on every run (page, limit, url, …): the answer is remembered,
  // which takes the run history's masking of a query string from ~2 µs to a few hundred ns.
  const known = verdicts.get(name);
  if (known !== undefined) return known;
  const verdict = judge(name);
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(name, verdict);
  return verdict;
}

// Names are client data: the memory is bounded, and starts afresh when full.
const MAX_VERDICTS = 4096;
const verdicts = new Map<string, boolean>();

function judge(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[-_\s]+/)
    .filter(Boolean);
  if (!words.length) return false;
  if (words[0] === 'x' && words.length > 1) words.shift();
  const joined = words.join('');
  if (EXACT.has(joined)) return true;
  const last = words.at(-1)!;
  if (words.length > 1 && LAST_WORDS.has(last)) return true;
  return words.length > 2 && LAST_PAIRS.has(`${words.at(-2)}_${last}`);
}
