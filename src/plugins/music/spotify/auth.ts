import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../../../core/logger.ts';
import { PipitError } from '../../../core/errors.ts';
import type { PluginKv } from '../../../store/plugin-kv.ts';
import { SCOPES } from './config.ts';
import type { SpotifyConfig } from './config.ts';
import type { Timers } from './timers.ts';
import { requestToken } from './token-endpoint.ts';
import type { TokenAnswer } from './token-endpoint.ts';

/** The stored credentials (secrets live under `*_token` keys, which the logger redacts). */
const TokenRecord = z.object({
  access_token: z.string(),
  refresh_token: z.string().optional(),
  /** Epoch ms on the plugin's clock. */
  expires_at: z.number(),
  scope: z.string().default(''),
  client_id: z.string(),
  obtained_at: z.number(),
});
export type TokenRecord = z.output<typeof TokenRecord>;

/** One authorization address handed out and not used yet. */
const PendingState = z.object({
  expires_at: z.number(),
  code_verifier: z.string().optional(),
  url: z.string(),
});
const PendingStates = z.record(z.string(), PendingState);
type PendingStates = z.output<typeof PendingStates>;

const TOKENS_KEY = 'tokens';
const STATES_KEY = 'pending_states';
// A state older than this can still be completed, but no new action reuses its address.
const REUSE_MARGIN_MS = 120_000;

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** What the callback route answers. */
export interface CallbackOutcome {
  status: number;
  text: string;
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
  readonly kv: PluginKv;
  readonly log: Logger;
  timers: Timers;
  #refreshing: Promise<TokenRecord> | undefined;
  #lastUrl: { url: string; expiresAt: number } | undefined;

  constructor(config: SpotifyConfig, kv: PluginKv, log: Logger, timers: Timers) {
    this.config = config;
    this.kv = kv;
    this.log = log;
    this.timers = timers;
  }

  /** The stored tokens for this client ID, if any (read from the DB: the CLI may have written them). */
  tokens(): TokenRecord | undefined {
    const parsed = TokenRecord.safeParse(this.kv.get(TOKENS_KEY));
    if (!parsed.success || parsed.data.client_id !== this.config.client_id) return undefined;
    return parsed.data;
  }

  /**
   * A new authorization address with a random, single-use, expiring `state` stored in the DB.
   *
   * @example
   * const { url, state } = auth.authorizeUrl();
   */
  authorizeUrl(): { url: string; state: string } {
    const state = base64url(randomBytes(24));
    const params = new URLSearchParams({
      client_id: this.config.client_id,
      response_type: 'code',
      redirect_uri: this.config.redirect_uri,
      // Spotify reads space-separated scopes (SPEC's "comma-separated" would be rejected).
      scope: SCOPES.join(' '),
      state,
    });
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
    };
    this.kv.set(STATES_KEY, states);
    this.#lastUrl = { url, expiresAt };
    return { url, state };
  }

  /**
   * The error an action gets before authorization; the address is also logged and printed
   * (SPEC: "written to the application log / standard output"), once per address.
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
        text: 'Unknown or expired authorization state. Start again with "pipit spotify login" or by running a music.spotify action.',
      };
    }
    delete states[state];
    this.kv.set(STATES_KEY, states);
    if (typeof query.error === 'string') {
      return { status: 400, text: `Spotify did not authorize Pipit: ${query.error}.` };
    }
    if (typeof query.code !== 'string' || !query.code) {
      return { status: 400, text: 'The callback carries no authorization code.' };
    }
    const form: Record<string, string> = {
      grant_type: 'authorization_code',
      code: query.code,
      redirect_uri: this.config.redirect_uri,
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
      return { status: 502, text: `The code exchange failed: ${(err as Error).message}` };
    }
    this.#lastUrl = undefined;
    this.log.info('Spotify authorized: tokens stored');
    return {
      status: 200,
      text: 'Pipit is now authorized to use Spotify. You can close this window.',
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
    this.log.debug('Spotify access token refreshed');
    return this.#store(answer, current.refresh_token);
  }

  #store(answer: TokenAnswer, oldRefresh: string | undefined): TokenRecord {
    const now = this.timers.now();
    const record: TokenRecord = {
      access_token: answer.access_token,
      // Spotify may or may not rotate the refresh token: keep the old one when none comes back.
      ...((answer.refresh_token ?? oldRefresh)
        ? { refresh_token: answer.refresh_token ?? oldRefresh }
        : {}),
      expires_at: now + answer.expires_in * 1000,
      scope: answer.scope ?? '',
      client_id: this.config.client_id,
      obtained_at: now,
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
