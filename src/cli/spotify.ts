import type { Server } from 'node:http';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { PipitError } from '../core/errors.ts';
import { nodeHttp } from '../lib/node-http.ts';
import type { Service } from '../app/service.ts';
import { describeUser, spotifyAuthStatus } from '../plugins/music/spotify/auth-status.ts';
import { CALLBACK_CSS, callbackPage } from '../plugins/music/spotify/callback-page.ts';
import { finishAuthorization } from '../plugins/music/spotify/callback.ts';
import { SPOTIFY_NOT_CONFIGURED } from '../plugins/music/spotify/config.ts';
import { currentProfile } from '../plugins/music/spotify/state.ts';
import type { SpotifyState } from '../plugins/music/spotify/state.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Options of {@link spotifyLogin}. */
export interface SpotifyLoginOptions {
  /** Give up after this long. */
  timeoutSeconds: number;
  /** Where the address and progress lines go (standard output in the CLI). */
  out: (line: string) => void;
  /** How often the database is checked for tokens written by the running service. */
  pollMs?: number;
}

// Serves the callback ourselves when the redirect_uri's loopback port is free; when it is taken
// (typically by the running service), that process receives the callback and writes the tokens.
async function serveCallback(state: SpotifyState, done: () => void): Promise<Server | undefined> {
  const redirect = new URL(state.auth.redirectUri);
  if (redirect.protocol !== 'http:' || !LOOPBACK.has(redirect.hostname)) return undefined;
  // The page's stylesheet sits next to it, as in the service (`/spotify/auth_callback.css`).
  const stylesheet = `${redirect.pathname}.css`;
  const server = nodeHttp.createServer((req, res) => {
    const url = new URL(req.url ?? '/', redirect.origin);
    if (req.method === 'GET' && url.pathname === stylesheet) {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' }).end(CALLBACK_CSS);
      return;
    }
    if (req.method !== 'GET' || url.pathname !== redirect.pathname) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    void finishAuthorization(state, Object.fromEntries(url.searchParams)).then(
      ({ status, view }) => {
        res
          .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
          .end(callbackPage(view, { stylesheet: stylesheet.split('/').pop()! }));
        if (status === 200) done();
      },
    );
  });
  const host = redirect.hostname.replace(/^\[|\]$/g, '');
  server.listen(Number(redirect.port || 80), host);
  try {
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([e]) => Promise.reject(e as Error)),
    ]);
    return server;
  } catch {
    server.close();
    return undefined;
  }
}

/** Says who is authorized already, if anyone (a new authorization replaces them); true if so. */
async function sayIfAuthorized(state: SpotifyState, out: (line: string) => void): Promise<boolean> {
  if (!state.auth.tokens()) return false;
  const status = await spotifyAuthStatus(state, AbortSignal.timeout(5000));
  if (!status.connected) return false;
  const who = status.user
    ? describeUser(status.user)
    : `an account Spotify did not name (${status.user_error ?? 'unknown'})`;
  const since = status.authorized_at
    ? ` since ${new Date(status.authorized_at * 1000).toLocaleString()}`
    : '';
  out(`Spotify is already authorized as ${who}${since}, with ${status.scopes.length} scopes.`);
  out('Completing this authorization replaces it (you may choose another Spotify account).');
  return true;
}

/**
 * `pipit spotify login`: says who is authorized already, if anyone, then prints the authorization
 * address and waits until tokens arrive, through its own callback listener or (when the port is
 * taken) the running service, via the database.
 *
 * @example
 * await spotifyLogin(service, { timeoutSeconds: 300, out: (l) => process.stdout.write(`${l}\n`) });
 */
export async function spotifyLogin(service: Service, opts: SpotifyLoginOptions): Promise<void> {
  const plugin = service.registry.plugins.get('music.spotify');
  if (!plugin) {
    throw new PipitError('CONFIG_INVALID', SPOTIFY_NOT_CONFIGURED);
  }
  const state = plugin.state as SpotifyState;
  const again = await sayIfAuthorized(state, opts.out);
  const started = state.auth.timers.now();
  // Spotify asks again even if the user approved before, so another account can be chosen.
  const { url } = state.auth.authorizeUrl({ showDialog: again });
  let finished = false;
  const server = await serveCallback(state, () => {
    finished = true;
  });
  opts.out('Open this address in a browser and allow access:');
  opts.out(url);
  opts.out(
    server
      ? `Waiting for Spotify to redirect to ${state.auth.redirectUri} ...`
      : `Waiting for the running Pipit service to receive ${state.auth.redirectUri} ...`,
  );
  const deadline = performance.now() + opts.timeoutSeconds * 1000;
  try {
    while (!finished) {
      // Without our own listener the service receives the callback: a new authorization shows
      // in the database (not a refresh of the one there was, which the service may do now).
      const authorizedAt = server ? undefined : state.auth.tokens()?.authorized_at;
      if (authorizedAt !== undefined && authorizedAt >= started) break;
      if (performance.now() > deadline) {
        throw new PipitError(
          'TIMEOUT',
          `no authorization arrived within ${opts.timeoutSeconds} s: run "pipit spotify login" again, and check that ${state.auth.redirectUri} is whitelisted in the Spotify app and reaches this machine`,
        );
      }
      await delay(opts.pollMs ?? 500);
    }
  } finally {
    server?.closeAllConnections();
    server?.close();
  }
  const user = await currentProfile(state, AbortSignal.timeout(5000)).catch(() => undefined);
  opts.out(`Spotify is authorized${user ? ` as ${describeUser(user)}` : ''}: tokens stored.`);
}
