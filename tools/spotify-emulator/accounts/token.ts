import { createHash } from 'node:crypto';
import type { Reply } from '../http.ts';
import { OAuthError } from '../http.ts';
import type { EmulatorState } from '../state/store.ts';
import type { App, RefreshToken } from './store.ts';

const DAY = 86_400_000;

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Client credentials from the Basic header or the form (RFC 6749 §2.3.1). */
function clientAuth(headers: Record<string, string | string[] | undefined>, form: URLSearchParams) {
  const header = headers.authorization;
  if (typeof header === 'string' && header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'Invalid client');
    return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  return { clientId: form.get('client_id'), secret: form.get('client_secret') };
}

function checkSecret(app: App, secret: string | null): boolean {
  if (secret === null) return false;
  if (app.clientSecret === null || app.clientSecret !== secret)
    throw new OAuthError('invalid_client', 'Invalid client secret');
  return true;
}

/**
 * `POST /api/token`: authorization_code (secret or PKCE), refresh_token, client_credentials.
 * @example
 * handleToken(state, headers, new URLSearchParams('grant_type=client_credentials'));
 */
export function handleToken(
  state: EmulatorState,
  headers: Record<string, string | string[] | undefined>,
  form: URLSearchParams,
): Reply {
  try {
    const grant = form.get('grant_type');
    if (!grant) throw new OAuthError('unsupported_grant_type', 'grant_type parameter is missing');
    const { clientId, secret } = clientAuth(headers, form);
    const app = state.accounts.apps.get(clientId ?? '');
    if (!app) throw new OAuthError('invalid_client', 'Invalid client');
    const authenticated = checkSecret(app, secret);
    if (grant === 'authorization_code') return codeGrant(state, app, authenticated, form);
    if (grant === 'refresh_token') return refreshGrant(state, app, authenticated, form);
    if (grant === 'client_credentials') {
      if (!authenticated) throw new OAuthError('invalid_client', 'Invalid client');
      const ttl = state.config.tokenTtlSeconds;
      const token = state.accounts.issueAccess(
        null,
        app.clientId,
        [],
        state.clock.now() + ttl * 1000,
      );
      return {
        status: 200,
        json: { access_token: token.token, token_type: 'Bearer', expires_in: ttl },
      };
    }
    throw new OAuthError('unsupported_grant_type', `grant_type ${grant} is not supported`);
  } catch (error) {
    if (error instanceof OAuthError) {
      return {
        status: error.status,
        json: { error: error.error, error_description: error.message },
      };
    }
    throw error;
  }
}

function codeGrant(
  state: EmulatorState,
  app: App,
  authenticated: boolean,
  form: URLSearchParams,
): Reply {
  const now = state.clock.now();
  const code = state.accounts.codes.get(form.get('code') ?? '');
  if (!code || code.used || code.clientId !== app.clientId)
    throw new OAuthError('invalid_grant', 'Invalid authorization code');
  if (now >= code.expiresAt) throw new OAuthError('invalid_grant', 'Authorization code expired');
  if (form.get('redirect_uri') !== code.redirectUri)
    throw new OAuthError('invalid_grant', 'Invalid redirect URI');
  const verifier = form.get('code_verifier');
  if (code.codeChallenge !== null) {
    if (verifier === null || s256(verifier) !== code.codeChallenge) {
      throw new OAuthError('invalid_grant', 'code_verifier was incorrect');
    }
  } else if (!authenticated) {
    throw new OAuthError('invalid_client', 'Invalid client');
  }
  code.used = true;
  const pkce = code.codeChallenge !== null;
  const refresh = state.accounts.issueRefresh(code.userId, app.clientId, code.scopes, now, pkce);
  return tokenReply(state, refresh, true);
}

function refreshGrant(
  state: EmulatorState,
  app: App,
  authenticated: boolean,
  form: URLSearchParams,
): Reply {
  const now = state.clock.now();
  const refresh = state.accounts.refreshTokens.get(form.get('refresh_token') ?? '');
  if (!refresh || refresh.clientId !== app.clientId)
    throw new OAuthError('invalid_grant', 'Invalid refresh token');
  // Tokens issued without PKCE belong to a confidential client: the secret is required.
  if (!refresh.pkce && !authenticated) throw new OAuthError('invalid_client', 'Invalid client');
  if (refresh.revoked) throw new OAuthError('invalid_grant', 'Refresh token revoked');
  if (now >= refresh.authorizedAt + state.config.refreshTokenTtlDays * DAY) {
    throw new OAuthError('invalid_grant', 'Invalid refresh token');
  }
  const rotation = state.config.refreshRotation;
  const rotate = rotation === 'always' || (rotation === 'pkce-only' && refresh.pkce);
  if (!rotate) return tokenReply(state, refresh, false);
  refresh.revoked = true;
  // The successor keeps the original authorization time: refreshing never extends the lifetime.
  const next = state.accounts.issueRefresh(
    refresh.userId,
    refresh.clientId,
    refresh.scopes,
    refresh.authorizedAt,
    refresh.pkce,
  );
  return tokenReply(state, next, true);
}

function tokenReply(state: EmulatorState, refresh: RefreshToken, includeRefresh: boolean): Reply {
  const ttl = state.config.tokenTtlSeconds;
  const access = state.accounts.issueAccess(
    refresh.userId,
    refresh.clientId,
    refresh.scopes,
    state.clock.now() + ttl * 1000,
  );
  const json: Record<string, unknown> = {
    access_token: access.token,
    token_type: 'Bearer',
    scope: refresh.scopes.join(' '),
    expires_in: ttl,
  };
  if (includeRefresh) json.refresh_token = refresh.token;
  return { status: 200, json };
}
