// The shapes of the connection routes' answers, with nothing but types imported: the web UI
// bundles this file as it is.
import type { SpotifyProfile } from './auth-records.ts';

/**
 * The connection state of the plugin (`GET /spotify/auth/status`, Settings → Integrations,
 * `pipit spotify login`). Times are UNIX seconds; `null` where there is nothing to say.
 */
export interface SpotifyAuthStatus {
  /** False when the plugin has no `music.spotify:` section (or `enabled: false`). */
  configured: boolean;
  /** Tokens are stored for the configured client ID. */
  connected: boolean;
  client_id: string | null;
  redirect_uri: string | null;
  /** `pkce` without a client secret, `client_secret` with one. */
  flow: 'pkce' | 'client_secret' | null;
  /** The Spotify account the tokens act for. */
  user: SpotifyProfile | null;
  /** Why `user` is null while connected (Spotify could not be asked). */
  user_error: string | null;
  /** Scopes Spotify granted. */
  scopes: string[];
  /** Scopes Pipit asks for that were not granted (reconnect to grant them). */
  missing_scopes: string[];
  /** When the access token expires (it is refreshed on its own while a refresh token exists). */
  expires_at: number | null;
  /** When the user authorized Pipit (kept across refreshes); null for older authorizations. */
  authorized_at: number | null;
  /** A refresh token is stored: the access can be renewed without the user. */
  refreshable: boolean;
}

/** The status of a plugin that is not configured (no section, or `enabled: false`). */
export const NOT_CONFIGURED: SpotifyAuthStatus = {
  configured: false,
  connected: false,
  client_id: null,
  redirect_uri: null,
  flow: null,
  user: null,
  user_error: null,
  scopes: [],
  missing_scopes: [],
  expires_at: null,
  authorized_at: null,
  refreshable: false,
};

/** `POST /spotify/auth/start`'s answer. */
export interface StartAnswer {
  /** The authorization address to open (in this tab, a popup, or on another device). */
  url: string;
  /** When its single-use `state` expires, UNIX seconds. */
  expires_at: number;
  /** Tokens are stored already: completing this replaces them. */
  already_connected: boolean;
  /** The redirect URI this authorization uses: the one to register in the Spotify app. */
  redirect_uri: string;
}
