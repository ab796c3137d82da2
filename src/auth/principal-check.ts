import { PipitError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import type { Principal } from './auth.ts';

/**
 * Why a principal authenticated earlier no longer holds (expired, token revoked, session ended,
 * user removed), or undefined while it does. Synchronous, one or two indexed look-ups: for
 * long-lived connections, when the credential epoch has moved or an expiry has come. Basic
 * credentials hold as long as their user exists.
 *
 * @example
 * const error = principalError(service.store, principal); if (error) refuse(socket, error);
 */
export function principalError(
  store: Store,
  principal: Principal,
  now = Date.now() / 1000,
): PipitError | undefined {
  const { via } = principal;
  if (principal.expiresAt !== undefined && principal.expiresAt <= now) {
    return new PipitError(
      'UNAUTHORIZED',
      via === 'session'
        ? 'your session has expired: log in again'
        : 'the token has expired: create a new one (POST /auth or Settings -> Tokens)',
    );
  }
  // The user first: removing one also removes their tokens and sessions, and says it better.
  if (!store.users.byId(principal.userId))
    return new PipitError('UNAUTHORIZED', 'the user of this connection no longer exists');
  if (via === 'token' && !store.tokens.get(principal.tokenId!))
    return new PipitError('UNAUTHORIZED', 'the token of this connection was revoked');
  if (via === 'session' && !store.sessions.get(principal.sessionId!))
    return new PipitError('UNAUTHORIZED', 'your session has ended: log in again');
  return undefined;
}
