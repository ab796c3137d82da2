import { isoSeconds } from '../clock.ts';
import { ApiError } from '../http.ts';
import type { EmuRequest } from '../http.ts';
import { pageOf, pageUrl } from '../paging.ts';
import { isBase62Id } from '../random.ts';
import type { Playlist, PlaylistItem } from '../state/playlists.ts';
import { renderPlayable } from '../state/render.ts';
import type { ApiContext } from './types.ts';
import { requireScope } from './types.ts';

function userRef(ctx: ApiContext, id: string) {
  return {
    external_urls: { spotify: `https://open.spotify.com/user/${id}` },
    href: `${ctx.api}/users/${id}`,
    id,
    type: 'user',
    uri: `spotify:user:${id}`,
  };
}

/**
 * The playlist for `{playlist_id}`: 400 for a malformed ID, 404 for unknown or Spotify-owned ones.
 * @example
 * const playlist = findPlaylist(ctx);
 */
export function findPlaylist(ctx: ApiContext): Playlist {
  const id = ctx.req.params.playlist_id ?? '';
  if (!isBase62Id(id)) throw new ApiError(400, 'Invalid base62 id');
  const playlist = ctx.state.playlists.byId.get(id);
  if (!playlist || ctx.state.playlists.spotifyOwned.has(id))
    throw new ApiError(404, 'Resource not found');
  const visible = playlist.public || ctx.state.playlists.canEdit(playlist, ctx.us.user.id);
  if (!visible) throw new ApiError(404, 'Resource not found');
  return playlist;
}

/**
 * Owner/collaborator check plus the modify scope matching the playlist's privacy.
 * @example
 * requireEditable(ctx, playlist);
 */
export function requireEditable(ctx: ApiContext, playlist: Playlist): void {
  const isPublic = playlist.public && !playlist.collaborative;
  requireScope(ctx, [isPublic ? 'playlist-modify-public' : 'playlist-modify-private']);
  if (!ctx.state.playlists.canEdit(playlist, ctx.us.user.id)) throw new ApiError(403, 'Forbidden');
}

/**
 * `PlaylistTrackObject` with `item`, plus the deprecated `track` when aliases are on.
 * @example
 * renderEntry(ctx, item);
 */
export function renderEntry(ctx: ApiContext, entry: PlaylistItem) {
  const item = renderPlayable(ctx.state.render, entry.uri);
  const out: Record<string, unknown> = {
    added_at: isoSeconds(entry.addedAt),
    added_by: userRef(ctx, entry.addedBy),
    is_local: false,
    item,
  };
  if (ctx.state.config.legacyPlaylistFieldAliases) out.track = item;
  return out;
}

/**
 * `SimplifiedPlaylistObject` as listed by `/me/playlists` and search.
 * @example
 * renderSimplifiedPlaylist(ctx, playlist);
 */
export function renderSimplifiedPlaylist(ctx: ApiContext, playlist: Playlist) {
  const ref = { href: `${ctx.api}/playlists/${playlist.id}/items`, total: playlist.items.length };
  const out: Record<string, unknown> = {
    collaborative: playlist.collaborative,
    description: playlist.description,
    external_urls: { spotify: `https://open.spotify.com/playlist/${playlist.id}` },
    href: `${ctx.api}/playlists/${playlist.id}`,
    id: playlist.id,
    images: images(playlist),
    name: playlist.name,
    owner: { ...userRef(ctx, playlist.ownerId), display_name: playlist.ownerName },
    public: playlist.public,
    snapshot_id: playlist.snapshotId,
    items: ref,
    type: 'playlist',
    uri: `spotify:playlist:${playlist.id}`,
  };
  if (ctx.state.config.legacyPlaylistFieldAliases) out.tracks = ref;
  return out;
}

function images(playlist: Playlist) {
  if (playlist.items.length === 0) return [];
  return [{ url: `https://mosaic.scdn.co/640/${playlist.id}`, height: 640, width: 640 }];
}

/**
 * Full `PlaylistObject`: the first 100 items embedded, or no items at all for a playlist the
 * user neither owns nor collaborates on (Development Mode).
 * @example
 * renderPlaylist(ctx, playlist);
 */
export function renderPlaylist(ctx: ApiContext, playlist: Playlist) {
  const out: Record<string, unknown> = {
    ...renderSimplifiedPlaylist(ctx, playlist),
    followers: { href: null, total: playlist.followers },
  };
  delete out.items;
  delete out.tracks;
  const hidden =
    ctx.state.config.mode === 'development' &&
    !ctx.state.playlists.canEdit(playlist, ctx.us.user.id);
  if (!hidden) {
    const itemsReq: EmuRequest = { ...ctx.req, query: new URLSearchParams() };
    const page = pageOf(
      itemsReq,
      playlist.items,
      100,
      0,
      (e) => renderEntry(ctx, e),
      `/v1/playlists/${playlist.id}/items`,
    );
    // The embedded page is 100 long (observed), but /items only accepts limit <= 50 in
    // Development Mode, so the link continues in pages of 50 rather than handing out a 400.
    if (page.next !== null)
      page.next = pageUrl({ ...itemsReq, path: `/v1/playlists/${playlist.id}/items` }, 100, 50);
    out.items = page;
    if (ctx.state.config.legacyPlaylistFieldAliases) out.tracks = page;
  }
  return out;
}
