import type { SpotifyProfile } from './auth-records.ts';
import { SCOPES } from './config.ts';
import { currentProfile } from './state.ts';
import type { SpotifyState } from './state.ts';
import type { SpotifyAuthStatus } from './auth-status-shape.ts';

export { NOT_CONFIGURED } from './auth-status-shape.ts';
export type { SpotifyAuthStatus } from './auth-status-shape.ts';

const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * Reads the connection state. The account is read from Spotify (`GET /me`) once per
 * authorization and stored with the tokens; when that read fails the status says why in
 * `user_error` rather than failing.
 *
 * @example
 * const status = await spotifyAuthStatus(state, AbortSignal.timeout(5000));
 * status.connected && status.user?.display_name; // 'Ada Lovelace'
 */
export async function spotifyAuthStatus(
  state: SpotifyState,
  signal?: AbortSignal,
  redirectUri = state.auth.redirectUri,
): Promise<SpotifyAuthStatus> {
  const { config, auth } = state;
  let userError: string | null = null;
  if (auth.tokens() && !auth.tokens()?.user) {
    try {
      await currentProfile(state, signal);
    } catch (err) {
      userError = err instanceof Error ? err.message : String(err);
    }
  }
  // Read again: the profile is stored now, or a refresh Spotify refused has dropped the tokens.
  const tokens = auth.tokens();
  const granted = tokens ? tokens.scope.split(/\s+/).filter(Boolean) : [];
  return {
    configured: true,
    connected: tokens !== undefined,
    client_id: config.client_id,
    redirect_uri: redirectUri,
    flow: config.client_secret ? 'client_secret' : 'pkce',
    user: tokens?.user ?? null,
    user_error: tokens ? userError : null,
    scopes: granted,
    missing_scopes: tokens ? SCOPES.filter((s) => !granted.includes(s)) : [],
    expires_at: tokens ? seconds(tokens.expires_at) : null,
    authorized_at: tokens?.authorized_at === undefined ? null : seconds(tokens.authorized_at),
    refreshable: Boolean(tokens?.refresh_token),
  };
}

/**
 * One line about the account for people: `"Ada Lovelace" (ada)`, or the ID alone.
 *
 * @example
 * describeUser({ id: 'ada', display_name: 'Ada Lovelace' }); // '"Ada Lovelace" (ada)'
 */
export function describeUser(user: SpotifyProfile): string {
  return user.display_name && user.display_name !== user.id
    ? `"${user.display_name}" (${user.id})`
    : user.id;
}
