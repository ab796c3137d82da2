import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from '../../../core/logger.ts';
import { PipitError } from '../../../core/errors.ts';
import type { KeyValueStore } from '../../../core/key-value.ts';
import { DEFAULT_REDIRECT_URI, SCOPES } from './config.ts';
import type { SpotifyConfig } from './config.ts';
import type { Timers } from './timers.ts';
import { requestToken } from './token-endpoint.ts';
import type { TokenAnswer } from './token-endpoint.ts';
import { grantOf, PendingStates, TokenRecord } from './auth-records.ts';
import type { SpotifyProfile } from './auth-records.ts';

const TOKENS_KEY = 'tokens';
const STATES_KEY = 'pending_states';
// A state older than this can still be completed, but no new action reuses its address.
const REUSE_MARGIN_MS = 120_000;

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** What the callback route answers. */
export interface CallbackOutcome {
  status: number;
  text: string;
  /** The origin the user started from, when the authorization recorded one. */
  returnTo?: string;
}

/**
 * The OAuth authorization-code flow (client secret, or PKCE without one), token storage in the
 * database and single-flight refresh. Shared by the actions, the callback route and the CLI.
 *
 * @example
 * const auth = new SpotifyAuth(config, kv, log, timers);
 * const { url } = auth.authorizeUrl();
 * const token = await auth.accessToken();
 */
export class SpotifyAuth {
  readonly config: SpotifyConfig;
  readonly kv: KeyValueStore;
  readonly log: Logger;
  timers: Timers;
  #refreshing: Promise<TokenRecord> | undefined;
  #lastUrl: { url: string; expiresAt: number } | undefined;

  /**
   * The redirect URI used where no browser is involved (the CLI, an action's "open this address"):
   * `redirect_uri` when configured, else the loopback address on the service's configured port.
   * The web UI's Connect passes one derived from the request instead (auth-routes.ts).
   */
  readonly redirectUri: string;

  constructor(
    config: SpotifyConfig,
    kv: KeyValueStore,
    log: Logger,
    timers: Timers,
    defaultRedirectUri = DEFAULT_REDIRECT_URI,
  ) {
    this.config = config;
    this.kv = kv;
    this.log = log;
    this.timers = timers;
    this.redirectUri = config.redirect_uri ?? defaultRedirectUri;
  }

  /** The stored tokens for this client ID, if any (read from the DB: the CLI may have written them). */
  tokens(): TokenRecord | undefined {
    const parsed = TokenRecord.safeParse(this.kv.get(TOKENS_KEY));
    if (!parsed.success || parsed.data.client_id !== this.config.client_id) return undefined;
    return parsed.data;
  }

  /**
   * A new authorization address with a random, single-use, expiring `state` stored in the DB.
   * `showDialog` makes Spotify ask again even when the user approved before (to switch accounts).
   * `redirectUri` overrides {@link redirectUri} for this one authorization (the code exchange
   * must repeat it, so it is stored with the state); `returnTo` is the origin the user started
   * from, where the callback page sends them back.
   *
   * @example
   * const { url, state, expiresAt } = auth.authorizeUrl({ showDialog: true });
   */
  authorizeUrl(opts: { showDialog?: boolean; redirectUri?: string; returnTo?: string } = {}): {
    url: string;
    state: string;
    expiresAt: number;
  } {
    const state = base64url(randomBytes(24));
    const params = new URLSearchParams({
      client_id: this.config.client_id,
      response_type: 'code',
      redirect_uri: opts.redirectUri ?? this.redirectUri,
      // Spotify reads space-separated scopes (a comma-separated list is rejected).
      scope: SCOPES.join(' '),
      state,
    });
    if (opts.showDialog) params.set('show_dialog', 'true');
    let verifier: string | undefined;
    if (!this.config.client_secret) {
      verifier = base64url(randomBytes(48));
      params.set('code_challenge_method', 'S256');
      params.set('code_challenge', base64url(createHash('sha256').update(verifier).digest()));
    }
    const url = `${this.config.auth_url.replace(/\/$/, '')}/authorize?${params.toString()}`;
    const now = this.timers.now();
    const expiresAt = now + this.config.auth_state_ttl_seconds * 1000;
    const states = this.#pending(now);
    states[state] = {
      expires_at: expiresAt,
      url,
      ...(verifier ? { code_verifier: verifier } : {}),
      ...(opts.redirectUri ? { redirect_uri: opts.redirectUri } : {}),
      ...(opts.returnTo ? { return_to: opts.returnTo } : {}),
    };
    this.kv.set(STATES_KEY, states);
    this.#lastUrl = { url, expiresAt };
    return { url, state, expiresAt };
  }

  /**
   * Forgets the stored tokens (Spotify has no revocation endpoint: the user removes the app's
   * access at spotify.com/account/apps). Returns whether there were any.
   *
   * @example
   * auth.disconnect(); // true
   */
  disconnect(): boolean {
    const had = this.kv.get(TOKENS_KEY) !== undefined;
    this.kv.delete(TOKENS_KEY);
    this.#lastUrl = undefined;
    return had;
  }

  /**
   * Records the account the stored tokens act for, unless they were replaced by another
   * authorization meanwhile (`grant` is {@link grantOf} of the tokens the profile was read with).
   *
   * @example
   * auth.rememberProfile(grantOf(tokens), { id: 'ada', display_name: 'Ada' });
   */
  rememberProfile(grant: number, user: SpotifyProfile): void {
    const current = this.tokens();
    if (!current || grantOf(current) !== grant) return;
    this.kv.set(TOKENS_KEY, { ...current, user });
  }

  /**
   * The error an action gets before authorization; the address is also written to the log and to
   * standard output (where a user of a script or a cron finds it), once per address.
   */
  notAuthorized(reason = 'Spotify is not authorized yet'): PipitError {
    const now = this.timers.now();
    let url =
      this.#lastUrl && this.#lastUrl.expiresAt - REUSE_MARGIN_MS > now
        ? this.#lastUrl.url
        : undefined;
    if (!url) {
      url = this.authorizeUrl().url;
      process.stdout.write(`music.spotify: ${reason}. Open this address to authorize:\n${url}\n`);
    }
    this.log.warn({ authorize_url: url }, `${reason}: open the authorization address`);
    return new PipitError(
      'UNAUTHORIZED',
      `${reason}: open ${url} in a browser and allow access (or run "pipit spotify login"), then retry`,
    );
  }

  /**
   * Completes the flow for `GET /spotify/auth_callback`: checks the state, exchanges the code and
   * stores the tokens.
   *
   * @example
   * const { status, text } = await auth.completeAuthorization({ code, state });
   */
  async completeAuthorization(query: Record<string, unknown>): Promise<CallbackOutcome> {
    const state = typeof query.state === 'string' ? query.state : '';
    const now = this.timers.now();
    const states = this.#pending(now);
    const pending = states[state];
    if (!pending) {
      return {
        status: 400,
        text: 'Unknown or expired authorization state. Start again: Connect in Settings → Integrations of the web UI, "pipit spotify login", or any music.spotify action.',
      };
    }
    delete states[state];
    this.kv.set(STATES_KEY, states);
    const back = pending.return_to ? { returnTo: pending.return_to } : {};
    if (typeof query.error === 'string') {
      const hint =
        query.error === 'access_denied'
          ? ' (access was declined; an app in Development Mode also turns away accounts not listed under its User Management)'
          : '';
      return {
        status: 400,
        text: `Spotify did not authorize Pipit: ${query.error}${hint}.`,
        ...back,
      };
    }
    if (typeof query.code !== 'string' || !query.code) {
      return { status: 400, text: 'The callback carries no authorization code.', ...back };
    }
    const form: Record<string, string> = {
      grant_type: 'authorization_code',
      code: query.code,
      redirect_uri: pending.redirect_uri ?? this.redirectUri,
    };
    if (pending.code_verifier) {
      form.client_id = this.config.client_id;
      form.code_verifier = pending.code_verifier;
    }
    try {
      const answer = await requestToken(this.config, this.timers, form);
      this.#store(answer, undefined);
    } catch (err) {
      this.log.warn({ err }, 'Spotify authorization: the code exchange failed');
      return {
        status: 502,
        text: `The code exchange failed: ${(err as Error).message}`,
        ...back,
      };
    }
    this.#lastUrl = undefined;
    this.log.info('Spotify authorized: tokens stored');
    return {
      status: 200,
      text: 'Pipit is now authorized to use Spotify. You can close this window.',
      ...back,
    };
  }

  /**
   * A valid access token, refreshed first when it expires within the margin.
   *
   * @example
   * const token = await auth.accessToken();
   */
  async accessToken(): Promise<string> {
    const tokens = this.tokens();
    if (!tokens) throw this.notAuthorized();
    if (tokens.expires_at - this.config.refresh_margin_seconds * 1000 > this.timers.now()) {
      return tokens.access_token;
    }
    return (await this.refresh(tokens.access_token)).access_token;
  }

  /**
   * Refreshes unless the token that failed has already been replaced; one refresh at a time
   * however many callers ask.
   */
  async refresh(staleToken: string): Promise<TokenRecord> {
    if (this.#refreshing) return this.#refreshing;
    const current = this.tokens();
    if (!current) throw this.notAuthorized();
    if (current.access_token !== staleToken) return current;
    this.#refreshing = this.#doRefresh(current).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #doRefresh(current: TokenRecord): Promise<TokenRecord> {
    if (!current.refresh_token) {
      this.kv.delete(TOKENS_KEY);
      throw this.notAuthorized('The Spotify access token expired and there is no refresh token');
    }
    const form: Record<string, string> = {
      grant_type: 'refresh_token',
      refresh_token: current.refresh_token,
    };
    if (!this.config.client_secret) form.client_id = this.config.client_id;
    let answer: TokenAnswer;
    try {
      answer = await requestToken(this.config, this.timers, form);
    } catch (err) {
      if (err instanceof PipitError && err.details.oauthError === 'invalid_grant') {
        this.kv.delete(TOKENS_KEY);
        throw this.notAuthorized(
          `Spotify no longer accepts the stored authorization (${String(err.details.description)}); re-authorize`,
        );
      }
      throw err;
    }
    const stored = this.tokens();
    if (stored?.access_token !== current.access_token) {
      // Disconnected or authorized again while the refresh was in flight: that decision stands.
      if (!stored) throw this.notAuthorized();
      return stored;
    }
    this.log.debug('Spotify access token refreshed');
    return this.#store(answer, current);
  }

  /** Stores a token answer; `previous` (a refresh) passes on the refresh token and the account. */
  #store(answer: TokenAnswer, previous: TokenRecord | undefined): TokenRecord {
    const now = this.timers.now();
    const refresh = answer.refresh_token ?? previous?.refresh_token;
    const record: TokenRecord = {
      access_token: answer.access_token,
      // Spotify may or may not rotate the refresh token: keep the old one when none comes back.
      ...(refresh ? { refresh_token: refresh } : {}),
      expires_at: now + answer.expires_in * 1000,
      // A refresh answer may leave the scopes out: they are the ones granted before.
      scope: answer.scope ?? previous?.scope ?? '',
      client_id: this.config.client_id,
      obtained_at: now,
      authorized_at: previous ? grantOf(previous) : now,
      ...(previous?.user ? { user: previous.user } : {}),
    };
    this.kv.set(TOKENS_KEY, record);
    return record;
  }

  #pending(now: number): PendingStates {
    const parsed = PendingStates.safeParse(this.kv.get(STATES_KEY) ?? {});
    const states = parsed.success ? parsed.data : {};
    for (const [key, value] of Object.entries(states))
      if (value.expires_at <= now) delete states[key];
    return states;
  }
}
