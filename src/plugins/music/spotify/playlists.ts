import { PipitError } from '../../../core/errors.ts';
import type { ApiPlaylist } from './mappers.ts';
import { readPages } from './paging.ts';
import type { Page } from './paging.ts';
import { rememberTotals } from './playlist-totals.ts';
import { isBareId, parseResource } from './resources.ts';
import type { SpotifyState } from './state.ts';

/** Page size of `/me/playlists` and `/playlists/{id}/items` (Development Mode caps both at 50). */
export const PLAYLIST_PAGE = 50;

/**
 * Lists the current user's playlists (`/me/playlists`), pages fetched concurrently.
 *
 * @example
 * const all = await myPlaylists(state, { offset: 0, limit: undefined }, signal);
 */
export async function myPlaylists(
  state: SpotifyState,
  range: { offset: number; limit: number | undefined },
  signal?: AbortSignal,
  path = '/me/playlists',
): Promise<ApiPlaylist[]> {
  const { items } = await readPages<ApiPlaylist | null>({
    fetchPage: (offset, limit) =>
      state.client.request<Page<ApiPlaylist | null>>({ path, query: { offset, limit }, signal }),
    ...range,
    pageSize: PLAYLIST_PAGE,
    concurrency: state.config.paging_concurrency,
  });
  const playlists = items.filter((p): p is ApiPlaylist => p !== null);
  rememberTotals(state, playlists);
  return playlists;
}

/**
 * The playlist ID for a playlist given by URI, open.spotify.com link, bare ID or name
 * (case-insensitive, among the user's playlists).
 *
 * @example
 * const id = await resolvePlaylist(state, 'Road Trip', signal);
 */
export async function resolvePlaylist(
  state: SpotifyState,
  playlist: string,
  signal?: AbortSignal,
): Promise<string> {
  const text = playlist.trim();
  if (text.startsWith('spotify:') || text.startsWith('http')) {
    return parseResource(text, { types: ['playlist'], what: 'playlist' }).id;
  }
  if (isBareId(text)) return text;
  const wanted = text.toLowerCase();
  const all = await myPlaylists(state, { offset: 0, limit: undefined }, signal);
  const matches = all.filter((p) => p.name?.toLowerCase() === wanted);
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length > 1) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `several of your playlists are named "${playlist}": give one of their URIs (${matches.map((p) => `spotify:playlist:${p.id}`).join(', ')})`,
    );
  }
  throw new PipitError(
    'INVALID_ARGUMENTS',
    `no playlist named "${playlist}" among your ${all.length} playlists; give its name, URI (spotify:playlist:<id>), link or ID`,
  );
}
