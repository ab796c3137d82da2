import { applyFields, parseFields } from '../fields.ts';
import { ApiError, jsonObject } from '../http.ts';
import { pageOf, pageParams } from '../paging.ts';
import { commit } from '../state/playlists.ts';
import type { Playlist } from '../state/playlists.ts';
import {
  findPlaylist,
  renderPlaylist,
  renderSimplifiedPlaylist,
  requireEditable,
} from './playlist-common.ts';
import type { ApiContext, ApiRoute } from './types.ts';
import { empty200, ok, requireScope } from './types.ts';

function optionalBool(body: Record<string, unknown>, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new ApiError(400, `Invalid ${key} value`);
  return value;
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ApiError(400, `Invalid ${key} value`);
  return value;
}

function myPlaylists(ctx: ApiContext) {
  const { limit, offset } = pageParams(ctx.req.query, {
    defaultLimit: 20,
    maxLimit: 50,
    maxOffset: 100_000,
  });
  const withCollaborative = ctx.token.scopes.has('playlist-read-collaborative');
  const playlists = ctx.us.library.playlists
    .list()
    .map(({ id }) => ctx.state.playlists.byId.get(id))
    .filter((p): p is Playlist => p !== undefined && !ctx.state.playlists.spotifyOwned.has(p.id))
    // Collaborative playlists of others need playlist-read-collaborative.
    .filter((p) => p.ownerId === ctx.us.user.id || !p.collaborative || withCollaborative);
  return ok(pageOf(ctx.req, playlists, limit, offset, (p) => renderSimplifiedPlaylist(ctx, p)));
}

function createPlaylist(ctx: ApiContext) {
  const body = jsonObject(ctx.req);
  const name = optionalString(body, 'name');
  if (name === undefined || name === '') throw new ApiError(400, 'Missing required field: name');
  const isPublic = optionalBool(body, 'public') ?? true;
  const collaborative = optionalBool(body, 'collaborative') ?? false;
  const description = optionalString(body, 'description') ?? null;
  if (collaborative && isPublic)
    throw new ApiError(400, 'Collaborative playlists can only be private.');
  if (collaborative) {
    requireScope(ctx, ['playlist-modify-public']);
    requireScope(ctx, ['playlist-modify-private']);
  } else {
    requireScope(ctx, [isPublic ? 'playlist-modify-public' : 'playlist-modify-private']);
  }
  const playlist = ctx.state.playlists.create(
    {
      id: ctx.state.rng.base62(),
      ownerId: ctx.us.user.id,
      ownerName: ctx.us.user.displayName,
      name,
      description,
      public: isPublic,
      collaborative,
    },
    [],
  );
  ctx.us.library.playlists.add(playlist.id, ctx.now);
  return ok(renderPlaylist(ctx, playlist), 201);
}

function changeDetails(ctx: ApiContext) {
  const playlist = findPlaylist(ctx);
  requireEditable(ctx, playlist);
  if (playlist.ownerId !== ctx.us.user.id) throw new ApiError(403, 'Forbidden');
  const body = jsonObject(ctx.req);
  const name = optionalString(body, 'name');
  const isPublic = optionalBool(body, 'public');
  const collaborative = optionalBool(body, 'collaborative');
  const description = optionalString(body, 'description');
  const nextPublic = isPublic ?? playlist.public;
  const nextCollaborative = collaborative ?? playlist.collaborative;
  if (nextCollaborative && nextPublic)
    throw new ApiError(400, 'Collaborative playlists can only be private.');
  if (name !== undefined) playlist.name = name;
  if (description !== undefined) playlist.description = description;
  playlist.public = nextPublic;
  playlist.collaborative = nextCollaborative;
  commit(playlist);
  return empty200();
}

/** Playlist-level endpoints (items are in playlist-items.ts). */
export const playlistRoutes: ApiRoute[] = [
  { method: 'GET', path: '/me/playlists', scopes: ['playlist-read-private'], handler: myPlaylists },
  { method: 'POST', path: '/me/playlists', handler: createPlaylist },
  {
    method: 'GET',
    path: '/playlists/{playlist_id}',
    handler: (ctx) => {
      const playlist = findPlaylist(ctx);
      const body = renderPlaylist(ctx, playlist);
      const fields = ctx.req.query.get('fields');
      return ok(fields ? applyFields(body, parseFields(fields)) : body);
    },
  },
  { method: 'PUT', path: '/playlists/{playlist_id}', handler: changeDetails },
];
