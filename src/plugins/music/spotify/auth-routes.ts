import type { FastifyInstance, preHandlerAsyncHookHandler, FastifyReply } from 'fastify';
import { z } from 'zod';
import { PipitError } from '../../../core/errors.ts';
import { parseBody } from '../../../http/reply.ts';
import { NOT_CONFIGURED, spotifyAuthStatus } from './auth-status.ts';
import type { StartAnswer } from './auth-status-shape.ts';
import type { SpotifyState } from './state.ts';

/** The JSON routes of the connection, for the web UI's Settings → Integrations. */
export const AUTH_ROUTES = {
  status: '/spotify/auth/status',
  start: '/spotify/auth/start',
  disconnect: '/spotify/auth/disconnect',
} as const;

/** How long the status may wait for Spotify to say who is connected. */
const STATUS_TIMEOUT_MS = 5000;

const StartBody = z.strictObject({
  show_dialog: z
    .boolean()
    .optional()
    .describe('make Spotify ask again even if the user approved before (default: when connected)'),
});

// These answers carry account details: never cached.
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

function notConfigured(): PipitError {
  return new PipitError(
    'NOT_FOUND',
    'the music.spotify plugin is not configured: add a "music.spotify:" section with client_id (see src/plugins/music/spotify/README.md)',
  );
}

/**
 * `GET /spotify/auth/status`, `POST /spotify/auth/start` and `POST /spotify/auth/disconnect`,
 * behind the API's own guard (a bearer token, or the session cookie plus `X-CSRF-Token` for the
 * POSTs). `current` gives the plugin's state as it is at request time.
 *
 * @example
 * authRoutes(app, ctx.requireUser, () => ctx.state);
 */
export function authRoutes(
  app: FastifyInstance,
  requireUser: preHandlerAsyncHookHandler,
  current: () => SpotifyState | undefined,
): void {
  const guard = { preHandler: requireUser };

  app.get(AUTH_ROUTES.status, guard, async (_req, reply) => {
    noStore(reply);
    const state = current();
    return state
      ? spotifyAuthStatus(state, AbortSignal.timeout(STATUS_TIMEOUT_MS))
      : NOT_CONFIGURED;
  });

  app.post(AUTH_ROUTES.start, guard, async (req, reply): Promise<StartAnswer> => {
    noStore(reply);
    const body = req.body === undefined || req.body === null ? {} : parseBody(StartBody, req.body);
    const state = current();
    if (!state) throw notConfigured();
    const connected = state.auth.tokens() !== undefined;
    const { url, expiresAt } = state.auth.authorizeUrl({
      showDialog: body.show_dialog ?? connected,
    });
    state.log.info({ user: req.principal?.username }, 'Spotify authorization started');
    return { url, expires_at: Math.round(expiresAt / 1000), already_connected: connected };
  });

  app.post(AUTH_ROUTES.disconnect, guard, async (req, reply) => {
    noStore(reply);
    const state = current();
    if (!state) throw notConfigured();
    state.devices = undefined;
    const disconnected = state.auth.disconnect();
    if (disconnected) state.log.info({ user: req.principal?.username }, 'Spotify disconnected');
    return { disconnected };
  });
}
