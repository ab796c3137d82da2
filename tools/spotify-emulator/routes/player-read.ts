import { ApiError } from '../http.ts';
import { pageParams, STANDARD_PAGE } from '../paging.ts';
import { renderContext, renderPlayable, renderTrack } from '../state/render.ts';
import { renderDevice } from '../state/users.ts';
import type { ApiContext, ApiRoute } from './types.ts';
import { ok } from './types.ts';

function playbackBody(ctx: ApiContext, withDevice: boolean): Record<string, unknown> | null {
  const device = ctx.state.activeDevice(ctx.us);
  const player = ctx.us.player;
  if (!device) return null;
  const item = player.current ? renderPlayable(ctx.state.render, player.current) : null;
  const body: Record<string, unknown> = {
    timestamp: player.timestamp,
    context: player.contextUri ? renderContext(ctx.state.render, player.contextUri) : null,
    progress_ms: player.current ? player.progress(ctx.now) : null,
    item,
    currently_playing_type: item ? item.type : 'unknown',
    actions: {
      interrupting_playback: false,
      pausing: !player.isPlaying,
      resuming: player.isPlaying,
      seeking: !item,
      skipping_next: !item,
      skipping_prev: !item,
      toggling_repeat_context: false,
      toggling_shuffle: false,
      toggling_repeat_track: false,
      transferring_playback: false,
    },
    is_playing: player.isPlaying,
  };
  if (withDevice) {
    Object.assign(body, {
      device: renderDevice(device, device.id),
      repeat_state: player.repeat,
      shuffle_state: player.shuffle,
    });
  }
  return body;
}

function recentlyPlayed(ctx: ApiContext) {
  const { query } = ctx.req;
  const { limit } = pageParams(query, STANDARD_PAGE);
  const cursor = (name: string) => {
    const raw = query.get(name);
    if (raw === null) return undefined;
    if (!/^\d+$/.test(raw)) throw new ApiError(400, `Invalid ${name} cursor`);
    return Number(raw);
  };
  const after = cursor('after');
  const before = cursor('before');
  // Message not verified against the live API.
  if (after !== undefined && before !== undefined)
    throw new ApiError(400, 'Only one of before or after may be specified');
  const newestFirst = [...ctx.us.history].reverse();
  let page;
  if (after !== undefined) {
    // The oldest `limit` plays after the cursor, so repeated `after` paging leaves no gap.
    page = newestFirst.filter((h) => h.playedAt > after).slice(-limit);
  } else {
    page = newestFirst.filter((h) => before === undefined || h.playedAt < before).slice(0, limit);
  }
  const href = `${ctx.req.origin}${ctx.req.path}?${ctx.req.query.toString()}`;
  if (page.length === 0) return { href, items: [], limit, next: null, cursors: null };
  const oldest = page.at(-1)!.playedAt;
  const hasOlder = newestFirst.some((h) => h.playedAt < oldest);
  return {
    href,
    items: page.map((h) => ({
      track: renderTrack(ctx.state.render, h.uri.split(':')[2]!),
      // With milliseconds (as the live API sends), so played_at and the ms cursors agree.
      played_at: new Date(h.playedAt).toISOString(),
      context: h.contextUri ? renderContext(ctx.state.render, h.contextUri) : null,
    })),
    limit,
    next: hasOlder ? `${ctx.api}/me/player/recently-played?before=${oldest}&limit=${limit}` : null,
    cursors: { after: String(page[0]!.playedAt), before: String(oldest) },
  };
}

/** Read-only player endpoints. */
export const playerReadRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/me/player',
    scopes: ['user-read-playback-state'],
    handler: (ctx) => {
      const body = playbackBody(ctx, true);
      return body ? ok(body) : { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/me/player/currently-playing',
    scopes: ['user-read-currently-playing'],
    handler: (ctx) => {
      const body = playbackBody(ctx, false);
      return body && body.item ? ok(body) : { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/me/player/devices',
    scopes: ['user-read-playback-state'],
    handler: (ctx) => {
      const active = ctx.state.activeDevice(ctx.us)?.id ?? null;
      const devices = [...ctx.us.devices.values()].filter((d) => d.available);
      return ok({ devices: devices.map((d) => renderDevice(d, active)) });
    },
  },
  {
    method: 'GET',
    path: '/me/player/queue',
    scopes: { anyOf: ['user-read-currently-playing', 'user-read-playback-state'] },
    handler: (ctx) => {
      const player = ctx.us.player;
      const active = ctx.state.activeDevice(ctx.us);
      if (!active || !player.current) return ok({ currently_playing: null, queue: [] });
      const render = (uri: string) => renderPlayable(ctx.state.render, uri);
      return ok({
        currently_playing: render(player.current),
        queue: player.upcoming(ctx.state.config.queueUpcoming).map(render),
      });
    },
  },
  {
    method: 'GET',
    path: '/me/player/recently-played',
    scopes: ['user-read-recently-played'],
    handler: (ctx) => ok(recentlyPlayed(ctx)),
  },
];
