import { REDACTED } from './action.ts';
import { isSecretName } from '../lib/secret-names.ts';

// Cheap first look: text with none of these cannot hold what the rules below mask (most strings).
const HINT = /[=@]|":|eyJ|bearer|basic|gh[pousr]_|github_pat_|glpat-|xox[abposr]-/i;
// name=value in a query string, a fragment, a form body or free text.
// A value ends at "?" too: a URL nested unencoded in another's query keeps its own parameters.
const PARAM = /(^|[?&;#\s])([^\s=&;#?"'<>]{1,64})=([^\s&;#?"'<>]+)/g;
// "name": "value" in JSON text held in a string (an error page, a raw body).
const JSON_PAIR = /("([^"\\]{1,64})"\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
// scheme://userinfo@ (the last "@" of the authority, as the URL parser reads it). The scheme is
// bounded: "a.a.a.…@" would otherwise be scanned again from every word, quadratic in its length.
const USERINFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s/?#"'<>]*)@/gi;
const BEARER = /\b(bearer)(\s+)([\w.~+/-]{8,}=*)/gi;
const BASIC = /\b(basic)(\s+)([A-Za-z0-9+/]{4,}={0,2})/gi;
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
// Tokens whose shape says what they are: GitHub, GitLab and Slack.
const KNOWN_TOKEN =
  /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{30,}|glpat-[\w-]{20,}|xox[abposr]-[\w-]{10,})/g;
// What a Basic credential decodes to ("basic authentication" decodes to bytes that are not).
const USER_PASSWORD = /^[\x20-\x7e]*:[\x20-\x7e]*$/;
// Where the Bearer and Basic rules, and the token shapes, can match at all.
const CREDENTIAL_HINT = /bearer|basic/i;
const TOKEN_HINT = /gh[pousr]_|github_pat_|glpat-|xox[abposr]-/;
// A bearer token has a digit or punctuation: "the bearer instrument" is prose.
const TOKEN_LIKE = /[\d.~+/_-]/;

function decodeName(name: string): string {
  // Most names have nothing to decode, and decoding costs more than the rest of the check.
  if (!name.includes('%') && !name.includes('+')) return name;
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/**
 * `text` with the credentials it carries replaced by `[redacted]`: values of query, fragment and
 * form parameters with secret names (`?access_token=…`, `#id_token=…`, `password=…`; see
 * `isSecretName`), string values of JSON members with such names inside the text, the password
 * (or lone user name) in a URL's user info, `Bearer …` and `Basic …` credentials, JWT-shaped
 * strings, and GitHub, GitLab and Slack tokens. The rest of the text is kept; text with nothing
 * to mask is returned as it is (the same string).
 *
 * @example
 * maskSecretText('https://x/cb?code=1&access_token=abc'); // 'https://x/cb?code=1&access_token=[redacted]'
 * maskSecretText('Bearer abc.def.123'); // 'Bearer [redacted]'
 */
export function maskSecretText(text: string): string {
  if (!HINT.test(text)) return text;
  let out = text;
  if (out.includes('=')) {
    out = out.replace(PARAM, (whole, lead: string, name: string, value: string) =>
      value !== REDACTED && isSecretName(decodeName(name)) ? `${lead}${name}=${REDACTED}` : whole,
    );
  }
  if (out.includes('":')) {
    out = out.replace(JSON_PAIR, (whole, head: string, name: string, value: string) =>
      value !== REDACTED && value !== '' && isSecretName(name) ? `${head}"${REDACTED}"` : whole,
    );
  }
  if (out.includes('@')) out = out.replace(USERINFO, maskUserinfo);
  // Each rule runs only where its own hint is: a query string has "=" but no credential words,
  // and four more scans of it cost more than all the rest of a recorded run.
  if (CREDENTIAL_HINT.test(out))
    out = out
      .replace(BEARER, (whole, word: string, space: string, token: string) =>
        TOKEN_LIKE.test(token) ? `${word}${space}${REDACTED}` : whole,
      )
      .replace(BASIC, (whole, word: string, space: string, encoded: string) =>
        USER_PASSWORD.test(Buffer.from(encoded, 'base64').toString('latin1'))
          ? `${word}${space}${REDACTED}`
          : whole,
      );
  if (out.includes('eyJ')) out = out.replace(JWT, REDACTED);
  if (TOKEN_HINT.test(out)) out = out.replace(KNOWN_TOKEN, REDACTED);
  return out === text ? text : out;
}

// A password is masked and its user name kept; a user name alone is how tokens travel
// (https://TOKEN@github.com/), so it is masked.
function maskUserinfo(whole: string, scheme: string, userinfo: string): string {
  if (userinfo === REDACTED || userinfo === '') return whole;
  const colon = userinfo.indexOf(':');
  if (colon < 0) return `${scheme}${REDACTED}@`;
  const password = userinfo.slice(colon + 1);
  return password === REDACTED || password === ''
    ? whole
    : `${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`;
}
