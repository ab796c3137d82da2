import { isoSeconds } from '../clock.ts';
import { ApiError } from '../http.ts';
import { pageOf, pageParams, STANDARD_PAGE } from '../paging.ts';
import { isBase62Id } from '../random.ts';
import { renderAlbum, renderEpisode, renderShow, renderTrack } from '../state/render.ts';
import type { SavedSet } from '../state/users.ts';
import { renderUser } from '../state/users.ts';
import type { ApiContext, ApiRoute } from './types.ts';
import { empty200, ok, requireScope } from './types.ts';

const MAX_LIBRARY_URIS = 40;
const SAVE_TYPES = new Set([
  'track',
  'album',
  'episode',
  'show',
  'audiobook',
  'user',
  'playlist',
  'artist',
]);

function savedList(
  path: string,
  key: string,
  pick: (ctx: ApiContext) => SavedSet,
  render: (ctx: ApiContext, id: string) => unknown,
  scopes: string[],
): ApiRoute {
  return {
    method: 'GET',
    path,
    scopes,
    handler: (ctx) => {
      const { limit, offset } = pageParams(ctx.req.query, STANDARD_PAGE);
      const list = pick(ctx).list();
      return ok(
        pageOf(ctx.req, list, limit, offset, (e) => ({
          added_at: isoSeconds(e.addedAt),
          [key]: render(ctx, e.id),
        })),
      );
    },
  };
}

/** Parse `uris` of `/me/library*`: required, ≤ 40, known types, base62 IDs. */
function libraryUris(ctx: ApiContext): { type: string; id: string; uri: string }[] {
  const raw = ctx.req.query.get('uris');
  if (raw === null || raw === '') throw new ApiError(400, 'Missing required parameter: uris');
  const uris = raw.split(',');
  if (uris.length > MAX_LIBRARY_URIS)
    throw new ApiError(400, 'Too many URIs requested. Maximum is 40.');
  return uris.map((uri) => {
    const match = /^spotify:([a-z]+):(.+)$/.exec(uri);
    if (!match) throw new ApiError(400, `Invalid URI: ${uri}`);
    const [, type = '', id = ''] = match;
    if (!SAVE_TYPES.has(type)) throw new ApiError(400, `Unsupported URI type: ${type}`);
    if (type !== 'user' && !isBase62Id(id)) throw new ApiError(400, 'Invalid base62 id');
    return { type, id, uri };
  });
}

// Per-type scope mapping is an inference (the OpenAPI lists all three scopes).
function scopeFor(type: string, write: boolean): string {
  if (type === 'playlist') return write ? 'playlist-modify-public' : 'playlist-read-private';
  if (type === 'user' || type === 'artist')
    return write ? 'user-follow-modify' : 'user-follow-read';
  return write ? 'user-library-modify' : 'user-library-read';
}

function exists(ctx: ApiContext, type: string, id: string): boolean {
  if (type === 'playlist') return ctx.state.playlists.byId.has(id);
  if (type === 'user') return ctx.state.users.has(id);
  if (type === 'audiobook') return false;
  return ctx.state.catalog.has(type, id);
}

function write(ctx: ApiContext, save: boolean) {
  const uris = libraryUris(ctx);
  for (const u of uris) requireScope(ctx, [scopeFor(u.type, true)]);
  for (const u of uris) {
    if (save && !exists(ctx, u.type, u.id)) throw new ApiError(404, 'non existing id');
  }
  for (const u of uris) {
    const set = ctx.us.library.setFor(u.type)!;
    if (save) set.add(u.id, ctx.now);
    else set.delete(u.id);
    const playlist = u.type === 'playlist' ? ctx.state.playlists.byId.get(u.id) : undefined;
    if (playlist && playlist.ownerId !== ctx.us.user.id) playlist.followers += save ? 1 : -1;
  }
  return empty200();
}

/** Saved-item lists, `/me/library` writes and contains, and `/me`. */
export const libraryRoutes: ApiRoute[] = [
  savedList(
    '/me/tracks',
    'track',
    (c) => c.us.library.tracks,
    (c, id) => renderTrack(c.state.render, id),
    ['user-library-read'],
  ),
  savedList(
    '/me/albums',
    'album',
    (c) => c.us.library.albums,
    (c, id) => renderAlbum(c.state.render, c.state.catalog.albums.get(id)!),
    ['user-library-read'],
  ),
  savedList(
    '/me/shows',
    'show',
    (c) => c.us.library.shows,
    (c, id) => renderShow(c.state.render, c.state.catalog.shows.get(id)!),
    ['user-library-read'],
  ),
  savedList(
    '/me/episodes',
    'episode',
    (c) => c.us.library.episodes,
    (c, id) => renderEpisode(c.state.render, id),
    ['user-library-read', 'user-read-playback-position'],
  ),
  { method: 'PUT', path: '/me/library', handler: (ctx) => write(ctx, true) },
  { method: 'DELETE', path: '/me/library', handler: (ctx) => write(ctx, false) },
  {
    method: 'GET',
    path: '/me/library/contains',
    handler: (ctx) => {
      const uris = libraryUris(ctx);
      for (const u of uris) requireScope(ctx, [scopeFor(u.type, false)]);
      return ok(uris.map((u) => ctx.us.library.setFor(u.type)!.has(u.id)));
    },
  },
  {
    method: 'GET',
    path: '/me',
    handler: (ctx) => ok(renderUser(ctx.us.user, ctx.api, ctx.state.config.mode)),
  },
];
