import { applyFields, parseFields } from '../fields.ts';
import { ApiError, jsonObject } from '../http.ts';
import { pageOf, pageParams } from '../paging.ts';
import { isBase62Id } from '../random.ts';
import { commit, reorder, versionOf } from '../state/playlists.ts';
import type { Playlist, PlaylistItem } from '../state/playlists.ts';
import { findPlaylist, renderEntry, requireEditable } from './playlist-common.ts';
import type { ApiContext, ApiRoute } from './types.ts';
import { ok, requireScope } from './types.ts';

const MAX_URIS = 100;

/** Query `uris` (comma-separated) wins over the body's. */
function urisOf(ctx: ApiContext, body: Record<string, unknown>): string[] | undefined {
  const query = ctx.req.query.get('uris');
  if (query !== null) return query === '' ? [] : query.split(',');
  if (body.uris === undefined) return undefined;
  if (!Array.isArray(body.uris) || body.uris.some((u) => typeof u !== 'string'))
    throw new ApiError(400, 'Invalid uris');
  return body.uris as string[];
}

function checkUris(ctx: ApiContext, uris: string[]): void {
  if (uris.length > MAX_URIS)
    throw new ApiError(400, 'You can add a maximum of 100 tracks per request.');
  for (const uri of uris) {
    const match = /^spotify:(track|episode):(.*)$/.exec(uri);
    if (!match) throw new ApiError(400, `Invalid track uri: ${uri}`);
    if (!isBase62Id(match[2]!)) throw new ApiError(400, 'Invalid base62 id');
    if (!ctx.state.catalog.has(match[1]!, match[2]!))
      throw new ApiError(400, 'Payload contains a non-existing ID');
  }
}

function entries(ctx: ApiContext, uris: string[]): PlaylistItem[] {
  return uris.map((uri) => ({ uri, addedAt: ctx.now, addedBy: ctx.us.user.id }));
}

function intField(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new ApiError(400, `Invalid ${name}`);
  return value;
}

function getItems(ctx: ApiContext) {
  requireScope(ctx, ['playlist-read-private']);
  const playlist = findPlaylist(ctx);
  const dev = ctx.state.config.mode === 'development';
  if (dev && !ctx.state.playlists.canEdit(playlist, ctx.us.user.id))
    throw new ApiError(403, 'Forbidden');
  const { limit, offset } = pageParams(ctx.req.query, {
    defaultLimit: 20,
    maxLimit: dev ? 50 : 100,
  });
  const page = pageOf(ctx.req, playlist.items, limit, offset, (e) => renderEntry(ctx, e));
  const fields = ctx.req.query.get('fields');
  return ok(fields ? applyFields(page, parseFields(fields)) : page);
}

function addItems(ctx: ApiContext) {
  const playlist = findPlaylist(ctx);
  requireEditable(ctx, playlist);
  const body = jsonObject(ctx.req);
  const uris = urisOf(ctx, body);
  if (uris === undefined || uris.length === 0) throw new ApiError(400, 'No uris provided');
  checkUris(ctx, uris);
  const rawPosition = ctx.req.query.get('position');
  const position =
    rawPosition !== null
      ? intField(Number(rawPosition), 'position')
      : intField(body.position, 'position');
  const at = position ?? playlist.items.length;
  if (at < 0 || at > playlist.items.length) throw new ApiError(400, 'Index out of bounds');
  const items = [
    ...playlist.items.slice(0, at),
    ...entries(ctx, uris),
    ...playlist.items.slice(at),
  ];
  return ok({ snapshot_id: commit(playlist, items) }, 201);
}

function reorderOrReplace(ctx: ApiContext) {
  const playlist = findPlaylist(ctx);
  requireEditable(ctx, playlist);
  const body = jsonObject(ctx.req);
  const uris = urisOf(ctx, body);
  if (uris !== undefined) {
    if (body.range_start !== undefined) throw new ApiError(400, 'Bad request.');
    checkUris(ctx, uris);
    return ok({ snapshot_id: commit(playlist, entries(ctx, uris)) });
  }
  const start = intField(body.range_start, 'range_start');
  const before = intField(body.insert_before, 'insert_before');
  const length = intField(body.range_length, 'range_length') ?? 1;
  if (start === undefined || before === undefined)
    throw new ApiError(400, 'Missing range_start or insert_before');
  const base = versionOf(playlist, body.snapshot_id);
  return ok({
    snapshot_id: commit(playlist, reorder(playlist.items, base, start, length, before)),
  });
}

function removeItems(ctx: ApiContext) {
  const playlist: Playlist = findPlaylist(ctx);
  requireEditable(ctx, playlist);
  const body = jsonObject(ctx.req);
  const list = body.items;
  if (!Array.isArray(list) || list.length === 0)
    throw new ApiError(400, 'Missing required field: items');
  if (list.length > MAX_URIS)
    throw new ApiError(400, 'You can remove a maximum of 100 tracks per request.');
  const uris = list.map((entry) => (entry as { uri?: unknown } | null)?.uri);
  if (uris.some((u) => typeof u !== 'string')) throw new ApiError(400, 'Invalid track uri');
  checkUris(ctx, uris as string[]);
  versionOf(playlist, body.snapshot_id);
  const remove = new Set(uris as string[]);
  return ok({
    snapshot_id: commit(
      playlist,
      playlist.items.filter((item) => !remove.has(item.uri)),
    ),
  });
}

/** `/playlists/{playlist_id}/items`. */
export const playlistItemRoutes: ApiRoute[] = [
  { method: 'GET', path: '/playlists/{playlist_id}/items', handler: getItems },
  { method: 'POST', path: '/playlists/{playlist_id}/items', handler: addItems },
  { method: 'PUT', path: '/playlists/{playlist_id}/items', handler: reorderOrReplace },
  { method: 'DELETE', path: '/playlists/{playlist_id}/items', handler: removeItems },
];
