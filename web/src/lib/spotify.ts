import { api, ApiError } from './api.ts';

// The shapes the server answers, from its own definitions (type-only: nothing is bundled).
import { NOT_CONFIGURED } from '../../../src/plugins/music/spotify/auth-status-shape.ts';
import type {
  SpotifyAuthStatus,
  StartAnswer,
} from '../../../src/plugins/music/spotify/auth-status-shape.ts';

export type { SpotifyAuthStatus, StartAnswer };

/** What the status is when the plugin has no configuration section (its routes do not exist). */
export const SPOTIFY_NOT_CONFIGURED: SpotifyAuthStatus = NOT_CONFIGURED;

/**
 * The Spotify connection: who, which scopes, until when. The plugin serves the route only when it
 * is enabled, so a 404 means "not configured".
 *
 * @example
 * const status = await fetchSpotifyStatus(); // { configured: true, connected: false, … }
 */
export async function fetchSpotifyStatus(): Promise<SpotifyAuthStatus> {
  try {
    return await api<SpotifyAuthStatus>('GET', '/spotify/auth/status');
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return SPOTIFY_NOT_CONFIGURED;
    throw err;
  }
}

/**
 * Asks for a new authorization address (recorded as pending by the server, single-use). With
 * `reconnect`, Spotify asks again even if the user approved before, so another account can be
 * chosen.
 *
 * @example
 * location.assign((await startSpotifyAuth(false)).url);
 */
export function startSpotifyAuth(reconnect: boolean): Promise<StartAnswer> {
  return api<StartAnswer>('POST', '/spotify/auth/start', { show_dialog: reconnect });
}

/**
 * Deletes the stored Spotify tokens; false when there were none.
 *
 * @example
 * await disconnectSpotify(); // true
 */
export async function disconnectSpotify(): Promise<boolean> {
  const { disconnected } = await api<{ disconnected: boolean }>('POST', '/spotify/auth/disconnect');
  return disconnected;
}

/**
 * The account as people read it: `Ada Lovelace (ada)`, or the ID alone.
 *
 * @example
 * accountLabel({ id: 'ada', display_name: 'Ada Lovelace' }); // 'Ada Lovelace (ada)'
 */
export function accountLabel(user: { id: string; display_name: string | null }): string {
  return user.display_name && user.display_name !== user.id
    ? `${user.display_name} (${user.id})`
    : user.id;
}
