import { setTimeout as sleep } from 'node:timers/promises';
import { PipitError, networkCause } from '../api/index.ts';
import type { TelegramConfig } from './config.ts';

/** A file to upload with multipart/form-data (https://core.telegram.org/bots/api#sending-files). */
export interface Upload {
  blob: Blob;
  filename: string;
}

/** How one call is made. */
export interface CallOptions {
  /** The caller giving up (the action's signal, or the plugin stopping). */
  signal?: AbortSignal;
  /** This call's timeout, in ms (default: request_timeout_seconds). */
  timeoutMs?: number;
  /** What sets the timeout, for the TIMEOUT message (default: request_timeout_seconds). */
  timeoutKey?: string;
  /** Parameters that are files: sent as multipart/form-data. */
  files?: Record<string, Upload>;
  /** A 429 whose retry_after is short enough is waited out and the call made once more. */
  retryRateLimit?: boolean;
}

/** What the Bot API answers (https://core.telegram.org/bots/api#making-requests). */
interface Envelope {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

/** Said when the Bot API refuses the token. */
export const TOKEN_FIX =
  'check chat.telegram.api_token: it is the token @BotFather gave for the bot (/mybots → the bot → API Token)';

/**
 * The Bot API over HTTPS: `POST <api_url>/bot<token>/<method>` with JSON (or multipart/form-data
 * for uploads), every call bounded by a timeout. Failures are PipitErrors whose `details.status` is
 * the Bot API's error_code: 400 → INVALID_ARGUMENTS, 401/404 → UNAVAILABLE naming api_token, 403
 * → ACTION_FAILED, 429 → RATE_LIMITED (`details.retryAfter`), others → UPSTREAM_ERROR; no answer →
 * UNAVAILABLE or TIMEOUT. The token is never in a message.
 *
 * @example
 * const me = await api.call<{ username: string }>('getMe', {});
 */
export class BotApi {
  /** The API's host, for messages. */
  readonly host: string;
  private readonly base: string;
  private readonly config: TelegramConfig;
  /** Until when (ms) the Bot API asked sends to wait (a 429's retry_after). */
  private blockedUntil = 0;

  constructor(config: TelegramConfig) {
    this.config = config;
    this.base = `${config.api_url.replace(/\/+$/, '')}/bot${config.api_token}`;
    this.host = new URL(config.api_url).host;
  }

  async call<T>(
    method: string,
    params: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.waitIfBlocked(method, opts.signal);
      try {
        return (await this.once(method, params, opts)) as T;
      } catch (err) {
        const after = (err as PipitError).details?.retryAfter;
        if (typeof after !== 'number' || !opts.retryRateLimit) throw err;
        this.blockedUntil = Math.max(this.blockedUntil, Date.now() + after * 1000);
        if (attempt > 0) throw rateLimited(method, after, ', again after waiting once');
        if (after > this.config.max_retry_after_seconds) throw rateLimited(method, after, TOO_LONG);
      }
    }
  }

  private async waitIfBlocked(method: string, signal?: AbortSignal): Promise<void> {
    const left = (this.blockedUntil - Date.now()) / 1000;
    if (left <= 0) return;
    if (left > this.config.max_retry_after_seconds)
      throw rateLimited(method, Math.ceil(left), TOO_LONG);
    await sleep(left * 1000, undefined, signal ? { signal } : {}).catch((err: unknown) => {
      throw new PipitError('ACTION_FAILED', `chat.telegram: ${method}: the caller gave up`, {
        cause: err,
      });
    });
  }

  private async once(
    method: string,
    params: Record<string, unknown>,
    opts: CallOptions,
  ): Promise<unknown> {
    const ms = opts.timeoutMs ?? this.config.request_timeout_seconds * 1000;
    const timeout = AbortSignal.timeout(ms);
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.base}/${method}`, {
        method: 'POST',
        ...body(params, opts.files),
        signal: opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout,
      });
      text = await res.text();
    } catch (err) {
      if (opts.signal?.aborted && !timeout.aborted)
        throw new PipitError('ACTION_FAILED', `chat.telegram: ${method}: the caller gave up`, {
          cause: err,
        });
      if (timeout.aborted)
        throw new PipitError(
          'TIMEOUT',
          `chat.telegram: the Bot API at ${this.host} did not answer ${method} within ${ms / 1000} s (${opts.timeoutKey ?? 'chat.telegram.request_timeout_seconds'})`,
          { cause: err },
        );
      throw new PipitError(
        'UNAVAILABLE',
        `chat.telegram: the Bot API at ${this.host} is not reachable: ${networkCause(err, 'code')}`,
        { cause: err },
      );
    }
    let answer: Envelope;
    try {
      answer = JSON.parse(text) as Envelope;
    } catch (err) {
      throw new PipitError(
        'UPSTREAM_ERROR',
        `chat.telegram: ${this.host} answered ${method} with HTTP ${res.status} and no Bot API JSON: is chat.telegram.api_url (${this.config.api_url}) a Bot API server?`,
        { cause: err, details: { status: res.status } },
      );
    }
    if (answer.ok) return answer.result;
    throw apiError(method, this.host, answer.error_code ?? res.status, answer);
  }
}

function body(
  params: Record<string, unknown>,
  files: Record<string, Upload> | undefined,
): { headers?: Record<string, string>; body: string | FormData } {
  const defined = Object.entries(params).filter(([, v]) => v !== undefined && v !== null);
  if (!files || !Object.keys(files).length)
    return {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(defined)),
    };
  const form = new FormData();
  for (const [k, v] of defined) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  for (const [k, file] of Object.entries(files)) form.set(k, file.blob, file.filename);
  return { body: form };
}

const TOO_LONG = ' (longer than chat.telegram.max_retry_after_seconds, so not waited out)';

function rateLimited(method: string, seconds: number, why = ''): PipitError {
  return new PipitError(
    'RATE_LIMITED',
    `chat.telegram: the Bot API rate-limits ${method}${why}: retry after ${seconds} s`,
    { details: { status: 429, retryAfter: seconds } },
  );
}

function apiError(method: string, host: string, status: number, answer: Envelope): PipitError {
  const said = answer.description ?? `error ${status}`;
  const details = { status };
  switch (status) {
    case 400:
      return new PipitError(
        'INVALID_ARGUMENTS',
        `chat.telegram: the Bot API refused ${method}: ${said}`,
        {
          details,
        },
      );
    case 401:
    case 404:
      return new PipitError(
        'UNAVAILABLE',
        `chat.telegram: the Bot API at ${host} refused the bot token (${status} ${said}): ${TOKEN_FIX}`,
        { details },
      );
    case 403:
      return new PipitError(
        'ACTION_FAILED',
        `chat.telegram: the Bot API refused ${method}: ${said}`,
        {
          details,
        },
      );
    case 429: {
      const after = answer.parameters?.retry_after;
      return typeof after === 'number'
        ? rateLimited(method, after)
        : new PipitError(
            'RATE_LIMITED',
            `chat.telegram: the Bot API rate-limits ${method}: ${said}`,
            {
              details,
            },
          );
    }
    default:
      return new PipitError(
        'UPSTREAM_ERROR',
        `chat.telegram: the Bot API at ${host} answered ${method} with ${status}: ${said}`,
        { details },
      );
  }
}
