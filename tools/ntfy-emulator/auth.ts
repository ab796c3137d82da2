import type { IncomingMessage } from 'node:http';
import type { NtfyError } from './errors.ts';
import { ERRORS } from './errors.ts';

// Access control (docs.ntfy.sh/publish/#authentication): Basic auth with a user's password, an
// access token as Bearer (or as the password of Basic auth), or either in the `auth` query
// parameter (the Authorization header's value, base64url-encoded, without padding).

/** Users and tokens of a server whose topics are all protected (`auth-default-access: deny-all`). */
export interface AuthOptions {
  /** user name → password */
  users?: Record<string, string>;
  /** access token → user name */
  tokens?: Record<string, string>;
  /** Users that may subscribe but not publish (403 on publish). */
  readOnly?: string[];
}

/**
 * Who a request authenticates as, or the error to answer: 401 for missing or wrong credentials,
 * 403 for a read-only user publishing. `undefined` options: every topic is open to everyone.
 */
export function authorize(
  req: IncomingMessage,
  url: URL,
  options: AuthOptions | undefined,
  write: boolean,
): { user: string | null } | { error: NtfyError } {
  const header = req.headers.authorization ?? fromQuery(url.searchParams.get('auth'));
  if (!options) return { user: null };
  if (!header) return { error: ERRORS.unauthorized };
  const user = userOf(header, options);
  if (!user) return { error: ERRORS.unauthorized };
  if (write && options.readOnly?.includes(user)) return { error: ERRORS.forbidden };
  return { user };
}

function fromQuery(auth: string | null): string | undefined {
  if (!auth) return undefined;
  return Buffer.from(auth, 'base64url').toString('utf8');
}

function userOf(header: string, options: AuthOptions): string | undefined {
  const [scheme, value = ''] = header.split(' ', 2);
  if (scheme?.toLowerCase() === 'bearer') return options.tokens?.[value];
  if (scheme?.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const name = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (name === '' && options.tokens?.[password]) return options.tokens[password];
  return options.users?.[name] !== undefined && options.users[name] === password ? name : undefined;
}
