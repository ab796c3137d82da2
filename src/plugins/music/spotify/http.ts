import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Logger } from '../../../core/logger.ts';
import type { Services } from '../../../core/services.ts';
import { authRoutes } from './auth-routes.ts';
import { callbackRoute } from './callback.ts';
import type { SpotifyState } from './state.ts';

/** What the plugin's routes need from the HTTP server (its `PluginHttpContext`). */
export interface SpotifyHttpContext {
  state: SpotifyState;
  services: Services;
  log: Logger;
  requireUser: preHandlerAsyncHookHandler;
}

/**
 * Registers the plugin's routes: the OAuth callback (and its page's stylesheet) and the
 * authenticated JSON routes of Settings → Integrations.
 *
 * @example
 * http: (app, ctx) => spotifyHttp(app, ctx),
 */
export function spotifyHttp(app: FastifyInstance, ctx: SpotifyHttpContext): void {
  // The state as it is at request time: the plugin may have been replaced since.
  const current = () =>
    (ctx.services.registry.plugins.get('music.spotify')?.state as SpotifyState | undefined) ??
    ctx.state;
  callbackRoute(app, current);
  authRoutes(app, ctx.requireUser, current);
}
