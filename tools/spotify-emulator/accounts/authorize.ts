import type { Reply } from '../http.ts';
import { secureToken } from '../random.ts';
import type { EmulatorState } from '../state/store.ts';
import { ALL_SCOPES } from './store.ts';

const CODE_TTL_MS = 10 * 60_000;

function page(status: number, message: string): Reply {
  const body = `<!doctype html><html><head><title>Error</title></head><body><h1>${message}</h1></body></html>`;
  return { status, text: body, contentType: 'text/html; charset=utf-8' };
}

function redirect(target: string, params: Record<string, string | null>): Reply {
  const url = new URL(target);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return { status: 302, text: '', headers: { location: url.toString() } };
}

/**
 * `GET /authorize`: no consent screen; it consents (or denies) as the configured user and
 * redirects. `emulator_user` and `emulator_decision=deny` override per request.
 * @example
 * handleAuthorize(state, new URLSearchParams({ client_id, response_type: 'code', redirect_uri }));
 */
export function handleAuthorize(state: EmulatorState, query: URLSearchParams): Reply {
  const app = state.accounts.apps.get(query.get('client_id') ?? '');
  // Bad client or redirect: shown on the Accounts page itself, never redirected.
  if (!app) return page(400, 'INVALID_CLIENT: Invalid client');
  const redirectUri = query.get('redirect_uri') ?? '';
  if (!state.accounts.redirectAllowed(app, redirectUri))
    return page(400, 'INVALID_CLIENT: Invalid redirect URI');
  const stateParam = query.get('state');
  const fail = (error: string) => redirect(redirectUri, { error, state: stateParam });
  if (query.get('response_type') !== 'code') return fail('unsupported_response_type');
  const scopes = (query.get('scope') ?? '').split(/[\s+]+/).filter(Boolean);
  if (scopes.some((s) => !(ALL_SCOPES as readonly string[]).includes(s)))
    return fail('invalid_scope');
  const challenge = query.get('code_challenge');
  const method = query.get('code_challenge_method');
  if (challenge !== null && method !== 'S256') return fail('invalid_request');
  if (challenge === null && app.clientSecret === null) return fail('invalid_request');
  const decision = query.get('emulator_decision') ?? state.config.authorizeDecision;
  if (decision === 'deny') return fail('access_denied');
  const userId = query.get('emulator_user') ?? state.config.authorizeUser;
  if (!state.users.has(userId)) return page(400, `Unknown emulator user ${userId}`);
  const code = `AQ${secureToken(120)}`;
  state.accounts.codes.set(code, {
    code,
    clientId: app.clientId,
    userId,
    redirectUri,
    scopes,
    codeChallenge: challenge,
    expiresAt: state.clock.now() + CODE_TTL_MS,
    used: false,
  });
  return redirect(redirectUri, { code, state: stateParam });
}
