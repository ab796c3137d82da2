import type { Reply } from '../http.ts';
import { ApiError, intParam, jsonObject, playerError } from '../http.ts';
import { isBase62Id, secureToken } from '../random.ts';
import { startIndex } from '../state/player.ts';
import type { Device } from '../state/users.ts';
import type { ApiContext, ApiRoute } from './types.ts';

const SCOPES = ['user-modify-playback-state'];

/** Premium check, then the targeted device (`device_id` wakes a known device). */
function target(ctx: ApiContext): Device {
  if (ctx.us.user.product !== 'premium')
    throw playerError(403, 'Premium required', 'PREMIUM_REQUIRED');
  const deviceId = ctx.req.query.get('device_id');
  if (deviceId !== null) {
    const device = ctx.us.devices.get(deviceId);
    if (!device || !device.available) throw new ApiError(404, 'Device not found');
    if (device.isRestricted)
      throw playerError(403, 'Restriction violated', 'DEVICE_NOT_CONTROLLABLE');
    if (ctx.us.player.deviceId !== device.id) ctx.us.player.transfer(device.id, false, ctx.now);
    return device;
  }
  const active = ctx.state.activeDevice(ctx.us);
  if (!active) throw playerError(404, 'No active device found', 'NO_ACTIVE_DEVICE');
  if (active.isRestricted)
    throw playerError(403, 'Restriction violated', 'DEVICE_NOT_CONTROLLABLE');
  return active;
}

/** 204, or the live API's 200 with a short opaque text body (since mid-2024). */
function success(ctx: ApiContext): Reply {
  if (ctx.state.config.playerSuccess === '200-text') {
    return { status: 200, text: secureToken(27), contentType: 'text/plain; charset=utf-8' };
  }
  return { status: 204 };
}

function command(
  method: string,
  path: string,
  run: (ctx: ApiContext, device: Device) => void,
): ApiRoute {
  return {
    method,
    path,
    scopes: SCOPES,
    handler: (ctx) => {
      run(ctx, target(ctx));
      return success(ctx);
    },
  };
}

/** A playable URI that exists, or the API's 400/404. */
function playableUri(ctx: ApiContext, uri: unknown): string {
  const match = typeof uri === 'string' ? /^spotify:(track|episode):(.*)$/.exec(uri) : null;
  if (!match) throw new ApiError(400, `Invalid track uri: ${String(uri)}`);
  if (!isBase62Id(match[2]!)) throw new ApiError(400, 'Invalid base62 id');
  if (!ctx.state.catalog.has(match[1]!, match[2]!)) throw new ApiError(404, 'non existing id');
  return uri as string;
}

function contextItems(ctx: ApiContext, contextUri: unknown): string[] {
  const match =
    typeof contextUri === 'string'
      ? /^spotify:(album|artist|playlist|show):(.*)$/.exec(contextUri)
      : null;
  if (!match) throw new ApiError(400, 'Invalid context uri');
  const [, type, id = ''] = match;
  if (!isBase62Id(id)) throw new ApiError(400, 'Invalid base62 id');
  const catalog = ctx.state.catalog;
  let items: string[] | undefined;
  if (type === 'album') items = catalog.albums.get(id)?.trackIds.map((t) => `spotify:track:${t}`);
  if (type === 'artist' && catalog.artists.has(id))
    items = catalog.artistTrackIds(id).map((t) => `spotify:track:${t}`);
  if (type === 'show') items = catalog.shows.get(id)?.episodeIds.map((e) => `spotify:episode:${e}`);
  if (type === 'playlist' && !ctx.state.playlists.spotifyOwned.has(id)) {
    items = ctx.state.playlists.byId.get(id)?.items.map((i) => i.uri);
  }
  if (!items) throw new ApiError(404, 'Not found.');
  if (items.length === 0) throw playerError(403, 'Restriction violated', 'NO_SPECIFIC_TRACK');
  return items;
}

function play(ctx: ApiContext): void {
  const body = jsonObject(ctx.req);
  const player = ctx.us.player;
  const { context_uri: contextUri, uris, offset, position_ms: positionMs } = body;
  if (contextUri === undefined && uris === undefined) {
    if (positionMs !== undefined)
      throw new ApiError(400, 'position_ms requires context_uri or uris');
    return player.resume(ctx.now, ctx.state.config.strictRestrictions);
  }
  if (contextUri !== undefined && uris !== undefined) {
    throw new ApiError(400, 'Only one of context_uri and uris may be specified');
  }
  if (
    positionMs !== undefined &&
    (typeof positionMs !== 'number' || !Number.isInteger(positionMs) || positionMs < 0)
  ) {
    throw new ApiError(400, 'Invalid position_ms');
  }
  let items: string[];
  if (uris !== undefined) {
    if (!Array.isArray(uris) || uris.length === 0) throw new ApiError(400, 'Invalid uris');
    items = uris.map((u) => playableUri(ctx, u));
  } else {
    items = contextItems(ctx, contextUri);
  }
  player.load(
    {
      contextUri: uris === undefined ? (contextUri as string) : null,
      items,
      startIndex: startIndex(offset, items),
      positionMs: positionMs ?? 0,
    },
    ctx.now,
  );
}

function transfer(ctx: ApiContext): Reply {
  const body = jsonObject(ctx.req);
  const ids = body.device_ids;
  if (!Array.isArray(ids) || ids.length === 0)
    throw new ApiError(400, 'Required field device_ids missing');
  if (ids.length > 1) throw new ApiError(400, 'Only one device_id is supported');
  if (ctx.us.user.product !== 'premium')
    throw playerError(403, 'Premium required', 'PREMIUM_REQUIRED');
  const device = typeof ids[0] === 'string' ? ctx.us.devices.get(ids[0]) : undefined;
  if (!device || !device.available) throw new ApiError(404, 'Device not found');
  if (body.play !== undefined && typeof body.play !== 'boolean')
    throw new ApiError(400, 'Invalid play value');
  ctx.us.player.transfer(device.id, body.play === true, ctx.now);
  return success(ctx);
}

function requiredInt(ctx: ApiContext, name: string): number {
  const value = intParam(ctx.req.query, name, `Invalid ${name}`);
  if (value === undefined) throw new ApiError(400, `Required parameter ${name} missing`);
  return value;
}

/** Commands: all need Premium and a device. */
export const playerCommandRoutes: ApiRoute[] = [
  { method: 'PUT', path: '/me/player', scopes: SCOPES, handler: transfer },
  command('PUT', '/me/player/play', (ctx) => play(ctx)),
  command('PUT', '/me/player/pause', (ctx) =>
    ctx.us.player.pause(ctx.now, ctx.state.config.strictRestrictions),
  ),
  command('POST', '/me/player/next', (ctx) => ctx.us.player.next(ctx.now)),
  command('POST', '/me/player/previous', (ctx) => ctx.us.player.previous(ctx.now)),
  command('PUT', '/me/player/seek', (ctx) => {
    const position = requiredInt(ctx, 'position_ms');
    if (position < 0) throw new ApiError(400, 'Invalid position_ms');
    ctx.us.player.seek(position, ctx.now);
  }),
  command('PUT', '/me/player/repeat', (ctx) => {
    const state = ctx.req.query.get('state');
    if (state !== 'track' && state !== 'context' && state !== 'off') {
      throw new ApiError(
        400,
        state === null ? 'Required parameter state missing' : 'Invalid repeat state',
      );
    }
    ctx.us.player.setRepeat(state, ctx.now);
  }),
  command('PUT', '/me/player/shuffle', (ctx) => {
    const state = ctx.req.query.get('state');
    if (state !== 'true' && state !== 'false') {
      throw new ApiError(
        400,
        state === null ? 'Required parameter state missing' : 'Invalid shuffle state',
      );
    }
    ctx.us.player.setShuffle(state === 'true', ctx.now);
  }),
  command('PUT', '/me/player/volume', (ctx, device) => {
    const volume = requiredInt(ctx, 'volume_percent');
    if (volume < 0 || volume > 100) throw new ApiError(400, 'Invalid volume_percent');
    if (!device.supportsVolume)
      throw playerError(403, 'Cannot control device volume', 'VOLUME_CONTROL_DISALLOW');
    device.volumePercent = volume;
  }),
  command('POST', '/me/player/queue', (ctx) => {
    const uri = ctx.req.query.get('uri');
    if (uri === null) throw new ApiError(400, 'Required parameter uri missing');
    ctx.us.player.enqueue(playableUri(ctx, uri));
  }),
];
