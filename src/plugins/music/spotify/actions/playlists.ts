import { z } from 'zod';
import { isPipitError, PipitError } from '../../../../core/errors.ts';
import { PLAYLIST_FIELDS, PLAYLIST_ITEMS_FIELDS } from '../fields.ts';
import { toPlaylist, toPlaylistItems } from '../mappers.ts';
import type { ApiPlaylist, ApiPlaylistPage } from '../mappers.ts';
import { prefetchPages, readPages } from '../paging.ts';
import { knownTotal, rememberTotal } from '../playlist-totals.ts';
import { myPlaylists, PLAYLIST_PAGE, resolvePlaylist } from '../playlists.ts';
import { PlaylistOut } from '../schemas.ts';
import type { PlaylistOut as Playlist } from '../schemas.ts';
import { currentUserId, spotifyAction } from '../state.ts';

/** The `playlist` parameter. */
export const PlaylistParam = z
  .string()
  .min(1)
  .describe('playlist URI, open.spotify.com link, ID, or name (one of your playlists)');

const NO_ITEMS = '!items,!tracks';
// The size of the first page of items that GET /playlists/{id} embeds.
const EMBEDDED = 100;

const getPlaylist = spotifyAction({
  name: 'get_playlist',
  summary: 'Returns a playlist, with its items (1-based positions) unless with_tracks is false.',
  description:
    'with_tracks defaults to true; with false only the metadata comes back. limit and offset apply only with tracks. Items of playlists you neither own nor collaborate on are hidden from Development-Mode apps: their tracks are null.',
  params: {
    playlist: PlaylistParam,
    with_tracks: z.boolean().default(true).describe('include the items (default true)'),
    limit: z
      .number()
      .int()
      .min(1)
      .nullable()
      .default(null)
      .describe('how many items; none = all of them (only with with_tracks)'),
    offset: z.number().int().min(0).default(0).describe('items to skip (only with with_tracks)'),
  },
  result: PlaylistOut,
  run: async ({ playlist, with_tracks: withTracks, limit, offset }, { state, signal }) => {
    if (!withTracks && (limit !== null || offset !== 0)) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        'get_playlist: "limit" and "offset" apply to the items; drop them or set with_tracks to true',
      );
    }
    const id = await resolvePlaylist(state, playlist, signal);
    const path = `/playlists/${id}`;
    const embedded = withTracks && offset < EMBEDDED;
    const fetchPage = (at: number, size: number) =>
      state.client.request<ApiPlaylistPage>({
        path: `${path}/items`,
        query: {
          offset: at,
          limit: size,
          additional_types: 'track,episode',
          fields: PLAYLIST_ITEMS_FIELDS,
        },
        signal,
      });
    // With the total known from before, the first pages after the embedded ones go out with the
    // playlist object (its request takes one of the `paging_concurrency` places).
    const predicted = embedded ? knownTotal(state, id) : undefined;
    const prefetched =
      predicted === undefined
        ? undefined
        : prefetchPages({
            fetchPage,
            from: Math.max(offset, EMBEDDED),
            end: Math.min(offset + (limit ?? Number.POSITIVE_INFINITY), predicted),
            pageSize: PLAYLIST_PAGE,
            count: state.config.paging_concurrency - 1,
          });
    const body = await state.client.request<ApiPlaylist>({
      path,
      query: embedded
        ? { additional_types: 'track,episode', fields: PLAYLIST_FIELDS }
        : { fields: NO_ITEMS },
      signal,
    });
    if (!withTracks) return toPlaylist(body, null);
    const first = body.items ?? body.tracks;
    if (embedded && !first) {
      state.log.info({ playlist: id }, 'playlist items are hidden from this app (not yours)');
      return toPlaylist(body, null);
    }
    if (embedded) rememberTotal(state, id, first?.total);
    const { items } = await readPages({
      fetchPage,
      offset,
      limit: limit ?? undefined,
      pageSize: PLAYLIST_PAGE,
      concurrency: state.config.paging_concurrency,
      ...(first ? { first: { offset: 0, page: first } } : {}),
      ...(prefetched ? { prefetched } : {}),
    });
    return toPlaylist(body, toPlaylistItems(items, offset));
  },
});

const getPlaylists = spotifyAction({
  name: 'get_playlists',
  summary: "Lists playlists: the user's own and followed ones, or those owned by `user`.",
  description:
    "Pages of 50 are fetched concurrently. Development-Mode apps cannot list another user's playlists (Spotify removed that endpoint for them).",
  params: {
    limit: z.number().int().min(1).max(100_000).default(1000).describe('how many playlists'),
    offset: z.number().int().min(0).max(100_000).default(0).describe('playlists to skip'),
    user: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe(
        "a user ID: only that user's playlists; default: all of yours (owned and followed)",
      ),
  },
  result: z.array(PlaylistOut),
  run: async ({ limit, offset, user }, { state, signal }): Promise<Playlist[]> => {
    if (!user) {
      return (await myPlaylists(state, { offset, limit }, signal)).map((p) => toPlaylist(p, null));
    }
    const me = await currentUserId(state, signal);
    let list: ApiPlaylist[];
    if (user === me) {
      list = await myPlaylists(state, { offset: 0, limit: undefined }, signal);
    } else {
      try {
        const path = `/users/${encodeURIComponent(user)}/playlists`;
        list = await myPlaylists(state, { offset: 0, limit: undefined }, signal, path);
      } catch (err) {
        if (isPipitError(err) && err.details.status === 403) {
          throw new PipitError(
            'UPSTREAM_ERROR',
            `Spotify does not let Development-Mode apps list the playlists of another user ("${user}"); omit "user" to list yours`,
            { cause: err },
          );
        }
        throw err;
      }
    }
    return list
      .filter((p) => p.owner?.id === user)
      .slice(offset, offset + limit)
      .map((p) => toPlaylist(p, null));
  },
});

const createPlaylist = spotifyAction({
  name: 'create_playlist',
  summary: 'Creates a playlist owned by the user and returns it.',
  params: {
    name: z.string().min(1).describe('playlist name'),
    description: z.string().nullable().optional().describe('playlist description'),
    public: z.boolean().default(false).describe('list it on your public profile'),
  },
  result: PlaylistOut,
  run: async ({ name, description, public: isPublic }, { state, signal }) => {
    const body = await state.client.request<ApiPlaylist>({
      method: 'POST',
      path: '/me/playlists',
      body: { name, public: isPublic, ...(description ? { description } : {}) },
      signal,
    });
    return toPlaylist(body, toPlaylistItems((body.items ?? body.tracks)?.items ?? [], 0));
  },
});

const followPlaylist = spotifyAction({
  name: 'follow_playlist',
  summary: 'Follows a playlist (adds it to your library).',
  description:
    'Spotify\'s current library endpoint has no public/private switch: "public" is accepted for compatibility but Spotify decides how followed playlists are shown.',
  params: {
    playlist: PlaylistParam,
    public: z
      .boolean()
      .default(true)
      .describe('(kept for compatibility; not supported by Spotify any more)'),
  },
  run: async ({ playlist }, { state, signal }) => {
    const id = await resolvePlaylist(state, playlist, signal);
    await state.client.request({
      method: 'PUT',
      path: '/me/library',
      query: { uris: `spotify:playlist:${id}` },
      signal,
    });
  },
});

const unfollowPlaylist = spotifyAction({
  name: 'unfollow_playlist',
  summary: 'Unfollows a playlist (for its owner this is how Spotify "deletes" it).',
  params: { playlist: PlaylistParam },
  run: async ({ playlist }, { state, signal }) => {
    const id = await resolvePlaylist(state, playlist, signal);
    await state.client.request({
      method: 'DELETE',
      path: '/me/library',
      query: { uris: `spotify:playlist:${id}` },
      signal,
    });
  },
});

/** get_playlist, get_playlists, create_playlist, follow_playlist, unfollow_playlist. */
export const playlistActions = [
  getPlaylist,
  getPlaylists,
  createPlaylist,
  followPlaylist,
  unfollowPlaylist,
];
