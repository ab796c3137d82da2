import type { Logger } from '../../../core/logger.ts';
import type { MetricsHooks } from '../../../core/services.ts';
import { PipitError } from '../../../core/errors.ts';
import type { SpotifyAuth } from './auth.ts';
import type { SpotifyConfig } from './config.ts';

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** One Web API call. */
export interface RequestOptions {
  method?: Method;
  /** Relative to `api_url` (`/me/player`) or an absolute `next` link. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** The action's signal: the caller giving up aborts the request and any wait. */
  signal?: AbortSignal;
  /** A player command: a 202 (device waking up) is retried. */
  player?: boolean;
}

interface ApiErrorBody {
  status?: number;
  message?: string;
  reason?: string;
}

function errorBody(text: string): ApiErrorBody {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (parsed && typeof parsed.error === 'object' && parsed.error !== null) {
      return parsed.error;
    }
    // `/me/library` documents a bare ErrorObject without the wrapper (Spotify's OpenAPI).
    return parsed as ApiErrorBody;
  } catch {
    return {};
  }
}

const REASONS: Record<string, string> = {
  NO_ACTIVE_DEVICE:
    'no Spotify device is active: start playback on a device, pass "device" (a name or ID from get_devices), or call start_or_transfer_playback',
  PREMIUM_REQUIRED:
    'Spotify Premium is required for player commands, and the authorized account is not Premium',
  VOLUME_CONTROL_DISALLOW: 'this device does not allow its volume to be controlled',
  DEVICE_NOT_CONTROLLABLE: 'this device cannot be controlled through the Web API',
};

/**
 * A thin Web API client: bearer token (refreshed before expiry and once on a 401), a timeout on
 * every request, retries with capped exponential backoff on 5xx/network errors/timeouts (not for
 * POST, which may have been applied), Retry-After honoured up to a cap, 202 retried for player
 * commands, any 2xx accepted without requiring JSON. Every attempt's status (429s included) is
 * counted in `metrics` when given (`pipit_upstream_requests_total{api="spotify"}`).
 *
 * @example
 * const client = new SpotifyClient(config, auth, log, services.metrics);
 * const devices = await client.request<{ devices: unknown[] }>({ path: '/me/player/devices' });
 */
export class SpotifyClient {
  readonly config: SpotifyConfig;
  readonly auth: SpotifyAuth;
  readonly log: Logger;
  /** Until when (plugin clock, epoch ms) calls fail fast after a 429 beyond the cap. */
  blockedUntil = 0;
  /**
   * Until when (plugin clock) calls hold back after a 429 that is being waited out: concurrent
   * calls (paging runs up to `paging_concurrency` at once) wait with the one that got it instead
   * of spending the penalty on requests that would be refused too.
   */
  pausedUntil = 0;
  readonly #metrics: MetricsHooks | undefined;

  constructor(config: SpotifyConfig, auth: SpotifyAuth, log: Logger, metrics?: MetricsHooks) {
    this.config = config;
    this.auth = auth;
    this.log = log;
    this.#metrics = metrics;
  }

  /** Performs one call; resolves with the parsed JSON body, or undefined for an empty/text body. */
  async request<T = unknown>(opts: RequestOptions): Promise<T> {
    const method = opts.method ?? 'GET';
    const url = this.#url(opts);
    const what = `${method} ${new URL(url).pathname}`;
    const idempotent = method !== 'POST';
    const timers = this.auth.timers;
    const max = this.config.max_retries;
    let attempts = 0;
    let refreshed = false;
    // The pause this call set itself (and has waited out already).
    let ownPause = 0;
    for (;;) {
      await this.#waitIfBlocked(what, opts.signal);
      const paused = this.pausedUntil - timers.now();
      if (paused > 0 && this.pausedUntil > ownPause) await timers.sleep(paused, opts.signal);
      const token = await this.auth.accessToken();
      const signals = [AbortSignal.timeout(this.config.request_timeout_seconds * 1000)];
      if (opts.signal) signals.push(opts.signal);
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
          signal: AbortSignal.any(signals),
        });
      } catch (err) {
        if (opts.signal?.aborted) {
          throw new PipitError('ACTION_FAILED', `${what}: the caller gave up`, { cause: err });
        }
        this.#metrics?.upstreamCall('spotify', method, 'error');
        const timedOut = (err as Error).name === 'TimeoutError';
        if (idempotent && attempts < max) {
          attempts++;
          await timers.sleep(this.#backoff(attempts), opts.signal);
          continue;
        }
        throw new PipitError(
          timedOut ? 'TIMEOUT' : 'UPSTREAM_ERROR',
          timedOut
            ? `Spotify did not answer ${what} within ${this.config.request_timeout_seconds} s (request_timeout_seconds) after ${attempts + 1} attempt(s); try again later`
            : `Spotify could not be reached for ${what} after ${attempts + 1} attempt(s): ${(err as Error).message}`,
          { cause: err },
        );
      }
      this.#metrics?.upstreamCall('spotify', method, res.status);
      const text = await res.text();
      if (res.status === 401 && !refreshed) {
        refreshed = true;
        await this.auth.refresh(token);
        continue;
      }
      if (res.status === 429) {
        const retryAfter = Number(res.headers.get('retry-after') ?? '1');
        const wait = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : 1;
        if (wait <= this.config.max_retry_after_seconds && attempts < max) {
          attempts++;
          this.log.debug({ what, retryAfter: wait }, 'Spotify rate limit: waiting');
          // One clock read: a millisecond ticking between two made the wait 1 ms short.
          const now = timers.now();
          ownPause = this.pausedUntil = Math.max(this.pausedUntil, now + wait * 1000);
          await timers.sleep(ownPause - now, opts.signal);
          continue;
        }
        this.blockedUntil = Math.max(this.blockedUntil, timers.now() + wait * 1000);
        throw this.#rateLimited(what, wait, errorBody(text).reason);
      }
      if (res.status >= 500 && idempotent && attempts < max) {
        attempts++;
        await timers.sleep(this.#backoff(attempts), opts.signal);
        continue;
      }
      if (res.status === 202 && opts.player) {
        if (attempts < max) {
          attempts++;
          await timers.sleep(this.config.wake_retry_seconds * 1000, opts.signal);
          continue;
        }
        throw new PipitError(
          'UPSTREAM_ERROR',
          `${what}: the Spotify device is still waking up after ${attempts + 1} attempts; retry in a few seconds`,
        );
      }
      if (res.ok) {
        const json = (res.headers.get('content-type') ?? '').includes('json') && text.trim();
        return (json ? JSON.parse(text) : undefined) as T;
      }
      throw this.#apiError(what, res.status, text);
    }
  }

  #url(opts: RequestOptions): string {
    const url = /^https?:\/\//.test(opts.path)
      ? new URL(opts.path)
      : new URL(`${this.config.api_url.replace(/\/$/, '')}${opts.path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    return url.toString();
  }

  async #waitIfBlocked(what: string, signal?: AbortSignal): Promise<void> {
    const left = (this.blockedUntil - this.auth.timers.now()) / 1000;
    if (left <= 0) return;
    if (left > this.config.max_retry_after_seconds) throw this.#rateLimited(what, Math.ceil(left));
    await this.auth.timers.sleep(left * 1000, signal);
  }

  #rateLimited(what: string, seconds: number, reason?: string): PipitError {
    const at = new Date(this.auth.timers.now() + seconds * 1000).toISOString();
    const quota = reason === 'QUOTA_EXCEEDED' ? ' (the app quota is exhausted)' : '';
    return new PipitError(
      'RATE_LIMITED',
      `Spotify rate limit${quota} on ${what}: retry after ${seconds} s (at ${at}); waits longer than max_retry_after_seconds (${this.config.max_retry_after_seconds} s) are not waited out`,
      { details: { retryAfter: seconds } },
    );
  }

  #apiError(what: string, status: number, text: string): PipitError {
    const body = errorBody(text);
    const message = body.message ?? (text.trim() && !text.includes('<') ? text.trim() : '');
    const reason = body.reason && body.reason !== 'UNKNOWN' ? body.reason : undefined;
    const details = { status, ...(reason ? { reason } : {}), endpoint: what };
    if (reason && REASONS[reason]) {
      return new PipitError('UPSTREAM_ERROR', `${REASONS[reason]} (${what}: ${status})`, {
        details,
      });
    }
    if (status === 401) {
      return this.auth.notAuthorized(`Spotify rejected the access token (${message || status})`);
    }
    if (status === 403 && /scope/i.test(message)) {
      return this.auth.notAuthorized(
        `Spotify says the authorization lacks a scope for ${what} ("${message}"); re-authorize`,
      );
    }
    const hint =
      status === 403 && message === 'Forbidden'
        ? ': Spotify refuses this for Development-Mode apps, or the playlist is neither yours nor shared with you'
        : status === 404 && /active device/i.test(message)
          ? `: ${REASONS.NO_ACTIVE_DEVICE}`
          : '';
    return new PipitError(
      'UPSTREAM_ERROR',
      `Spotify answered ${status} to ${what}${message ? `: ${message}` : ''}${reason ? ` (${reason})` : ''}${hint}`,
      { details },
    );
  }

  #backoff(attempt: number): number {
    const base = this.config.backoff_seconds * 1000 * 2 ** (attempt - 1);
    // Jitter keeps many clients from retrying in lockstep.
    return Math.min(base * (0.75 + Math.random() * 0.5), this.config.max_backoff_seconds * 1000);
  }
}
