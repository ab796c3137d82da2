import { z } from 'zod';
import { PipitError } from '../../../core/errors.ts';
import type { SpotifyConfig } from './config.ts';
import type { Timers } from './timers.ts';

/** The token endpoint's answer (RFC 6749). */
export const TokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive(),
  scope: z.string().optional(),
  refresh_token: z.string().min(1).optional(),
});

export type TokenAnswer = z.output<typeof TokenResponse>;

/**
 * POSTs a form to `{auth_url}/api/token` (Basic client authentication when there is a secret),
 * retrying 5xx and network errors; an OAuth error becomes a PipitError whose details carry
 * `oauthError` (e.g. `invalid_grant`).
 *
 * @example
 * const answer = await requestToken(config, timers, { grant_type: 'refresh_token', refresh_token });
 */
export async function requestToken(
  config: SpotifyConfig,
  timers: Timers,
  form: Record<string, string>,
): Promise<TokenAnswer> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (config.client_secret) {
    const basic = Buffer.from(`${config.client_id}:${config.client_secret}`);
    headers.authorization = `Basic ${basic.toString('base64')}`;
  }
  const url = `${config.auth_url.replace(/\/$/, '')}/api/token`;
  const timeoutMs = config.request_timeout_seconds * 1000;
  let lastError: unknown;
  for (let attempt = 0; attempt <= config.max_retries; attempt++) {
    if (attempt > 0) await timers.sleep(backoff(config, attempt));
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers,
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      lastError = new PipitError(
        (err as Error).name === 'TimeoutError' ? 'TIMEOUT' : 'UPSTREAM_ERROR',
        `the Spotify token endpoint ${url} did not answer (${(err as Error).message})`,
        { cause: err },
      );
      continue;
    }
    const text = await res.text();
    if (res.status >= 500) {
      lastError = new PipitError(
        'UPSTREAM_ERROR',
        `the Spotify token endpoint answered ${res.status}`,
      );
      continue;
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = {};
    }
    if (!res.ok) {
      const fields = body as Record<string, unknown>;
      const error = typeof fields.error === 'string' ? fields.error : String(res.status);
      const description =
        typeof fields.error_description === 'string' ? fields.error_description : undefined;
      throw new PipitError(
        error === 'invalid_grant' || error === 'invalid_client' ? 'UNAUTHORIZED' : 'UPSTREAM_ERROR',
        `the Spotify token endpoint refused the request: ${error}${description ? ` (${description})` : ''}`,
        { details: { oauthError: error, description } },
      );
    }
    const parsed = TokenResponse.safeParse(body);
    if (!parsed.success) {
      throw new PipitError(
        'UPSTREAM_ERROR',
        'the Spotify token endpoint answered without an access token',
      );
    }
    return parsed.data;
  }
  throw lastError as Error;
}

function backoff(config: SpotifyConfig, attempt: number): number {
  const ms = config.backoff_seconds * 1000 * 2 ** (attempt - 1);
  return Math.min(ms, config.max_backoff_seconds * 1000);
}
