import { isIP } from 'node:net';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { z } from 'zod';
import { PipitError } from '../../../core/errors.ts';
import { parseBody } from '../../../core/parse-body.ts';
import { NOT_CONFIGURED, spotifyAuthStatus } from './auth-status.ts';
import { loopbackRedirectUri, SPOTIFY_NOT_CONFIGURED } from './config.ts';
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
  return new PipitError('NOT_FOUND', SPOTIFY_NOT_CONFIGURED);
}

/**
 * The redirect URI for a Connect started from this request: `redirect_uri` when configured; else
 * a loopback IP literal (the only plain-http redirect Spotify accepts) on the port this service
 * answered on, which is right whatever `backend.http.port` says and whether the browser used
 * `localhost`, `127.0.0.1` or `[::1]`. A browser on another machine needs an https `redirect_uri`.
 *
 * @example
 * redirectFor(state, req); // 'http://127.0.0.1:8123/spotify/auth_callback'
 */
export function redirectFor(state: SpotifyState, req: FastifyRequest): string {
  if (state.config.redirect_uri) return state.config.redirect_uri;
  const port = req.socket.localPort;
  if (!port) return state.auth.redirectUri;
  return loopbackRedirectUri(
    port,
    req.hostname === '[::1]' || req.hostname === '::1' ? '[::1]' : '127.0.0.1',
  );
}

/**
 * The origin the browser used (`http://localhost:8008`): where the callback page sends the user
 * back, since their session cookie belongs to it. Only a plain host[:port] is taken.
 */
function browserOrigin(req: FastifyRequest): string | undefined {
  const host = req.host;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  const valid = /^\[[0-9a-f:.]+\]$/i.test(name) || isIP(name) !== 0 || /^[a-z0-9.-]+$/i.test(name);
  return valid && /^(\[[^\]]+\]|[^:/]+)(:\d{1,5})?$/.test(host)
    ? `${req.protocol}://${host}`
    : undefined;
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

  app.get(AUTH_ROUTES.status, guard, async (req, reply) => {
    noStore(reply);
    const state = current();
    return state
      ? spotifyAuthStatus(state, AbortSignal.timeout(STATUS_TIMEOUT_MS), redirectFor(state, req))
      : NOT_CONFIGURED;
  });

  app.post(AUTH_ROUTES.start, guard, async (req, reply): Promise<StartAnswer> => {
    noStore(reply);
    const body = req.body === undefined || req.body === null ? {} : parseBody(StartBody, req.body);
    const state = current();
    if (!state) throw notConfigured();
    const connected = state.auth.tokens() !== undefined;
    const redirectUri = redirectFor(state, req);
    const returnTo = browserOrigin(req);
    const { url, expiresAt } = state.auth.authorizeUrl({
      showDialog: body.show_dialog ?? connected,
      redirectUri,
      ...(returnTo ? { returnTo } : {}),
    });
    state.log.info(
      { user: req.principal?.username, redirect_uri: redirectUri },
      'Spotify authorization started',
    );
    return {
      url,
      expires_at: Math.round(expiresAt / 1000),
      already_connected: connected,
      redirect_uri: redirectUri,
    };
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
