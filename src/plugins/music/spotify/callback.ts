import type { FastifyInstance } from 'fastify';
import { CALLBACK_CSS, callbackPage } from './callback-page.ts';
import type { CallbackView } from './callback-page.ts';
import { currentProfile } from './state.ts';
import type { SpotifyState } from './state.ts';

/**
 * The path Spotify redirects to after the user allows access: `/<provider>/auth_callback`, as in
 * Platypush, so an app registered for Platypush needs no change.
 */
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
): Promise<{ status: number; view: CallbackView; returnTo?: string }> {
  const outcome = await state.auth.completeAuthorization(query);
  const back = outcome.returnTo ? { returnTo: outcome.returnTo } : {};
  if (outcome.status !== 200) {
    return { status: outcome.status, view: { ok: false, text: outcome.text }, ...back };
  }
  state.devices = undefined;
  const user = await currentProfile(state, AbortSignal.timeout(PROFILE_TIMEOUT_MS)).catch(
    (err: unknown) => {
      state.log.warn({ err }, 'Spotify authorized, but the account could not be read');
      return undefined;
    },
  );
  return {
    status: 200,
    view: { ok: true, text: outcome.text, ...(user ? { user } : {}) },
    ...back,
  };
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
  const stylesheet = `${CALLBACK_PATH.split('/').pop()!}.css`;
  app.get(CALLBACK_PATH, async (req, reply) => {
    const state = current();
    const { status, view, returnTo } = state
      ? await finishAuthorization(state, req.query as Record<string, unknown>)
      : {
          status: 404,
          view: { ok: false, text: 'The music.spotify plugin is not configured any more.' },
        };
    return reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        callbackPage(view, {
          stylesheet,
          // Back to the origin the user started from when Spotify called back on another one (a
          // loopback IP literal, while the session belongs to the address the user browses, often
          // localhost). Relative otherwise, which keeps working behind a proxy under a prefix.
          returnTo:
            returnTo && returnTo !== `${req.protocol}://${req.host}`
              ? `${returnTo}/settings/integrations`
              : '../settings/integrations',
        }),
      );
  });
  app.get(`${CALLBACK_PATH}.css`, async (_req, reply) =>
    reply
      .header('content-type', 'text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(CALLBACK_CSS),
  );
}
