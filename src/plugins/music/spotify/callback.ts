import type { FastifyInstance } from 'fastify';
import { CALLBACK_CSS, callbackPage } from './callback-page.ts';
import type { CallbackView } from './callback-page.ts';
import { currentProfile } from './state.ts';
import type { SpotifyState } from './state.ts';

/** The path Spotify redirects to after the user allows access (SPEC: `/<provider>/auth_callback`). */
export const CALLBACK_PATH = '/spotify/auth_callback';

/** How long the success page may wait for Spotify to say who authorized. */
const PROFILE_TIMEOUT_MS = 5000;

/**
 * Completes an authorization from the callback's query (state, code exchange, tokens stored),
 * then reads the account it is for, so the page can say who is connected. The account is a
 * nicety: when Spotify does not answer in time the authorization still succeeded.
 *
 * @example
 * const { status, view } = await finishAuthorization(state, { code, state: s });
 */
export async function finishAuthorization(
  state: SpotifyState,
  query: Record<string, unknown>,
): Promise<{ status: number; view: CallbackView }> {
  const outcome = await state.auth.completeAuthorization(query);
  if (outcome.status !== 200) {
    return { status: outcome.status, view: { ok: false, text: outcome.text } };
  }
  state.devices = undefined;
  const user = await currentProfile(state, AbortSignal.timeout(PROFILE_TIMEOUT_MS)).catch(
    (err: unknown) => {
      state.log.warn({ err }, 'Spotify authorized, but the account could not be read');
      return undefined;
    },
  );
  return { status: 200, view: { ok: true, text: outcome.text, ...(user ? { user } : {}) } };
}

/**
 * Serves `GET /spotify/auth_callback` (unauthenticated: only a pending, unexpired, single-use
 * `state` is accepted) and its stylesheet. `current` is the plugin's state as it is now (it may
 * have been reloaded since the routes were registered).
 *
 * @example
 * callbackRoute(app, () => state);
 */
export function callbackRoute(app: FastifyInstance, current: () => SpotifyState | undefined): void {
  // Relative links keep working behind a reverse proxy that serves Pipit under a prefix.
  const links = {
    stylesheet: `${CALLBACK_PATH.split('/').pop()!}.css`,
    returnTo: '../settings/integrations',
  };
  app.get(CALLBACK_PATH, async (req, reply) => {
    const state = current();
    const { status, view } = state
      ? await finishAuthorization(state, req.query as Record<string, unknown>)
      : {
          status: 404,
          view: { ok: false, text: 'The music.spotify plugin is not configured any more.' },
        };
    return reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(callbackPage(view, links));
  });
  app.get(`${CALLBACK_PATH}.css`, async (_req, reply) =>
    reply
      .header('content-type', 'text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(CALLBACK_CSS),
  );
}
