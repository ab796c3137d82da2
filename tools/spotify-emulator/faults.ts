import type { Reply } from './http.ts';
import { errorReply } from './http.ts';
import { Prng } from './random.ts';

/** What an injected fault answers. */
export type FaultResponse =
  | { kind: 'token-expired' }
  | { kind: 'token-invalid' }
  /** `rate`: "API rate limit exceeded"; `quota`: Jul-2026 `reason: QUOTA_EXCEEDED`; `empty`: no body. */
  | { kind: 'rate-limit'; retryAfter?: number; variant?: 'rate' | 'quota' | 'empty' }
  | { kind: 'server-error'; status?: 500 | 502 | 503; body?: 'json' | 'html' | 'empty' }
  | { kind: 'no-active-device' }
  | { kind: 'premium-required' }
  | { kind: 'restriction'; reason?: string }
  | { kind: 'volume-disallowed' }
  /** 202 with an empty body: the device is waking up; the command is not applied. */
  | { kind: 'accepted' }
  /** A token-endpoint error, e.g. `invalid_grant` / `Refresh token revoked`. */
  | { kind: 'oauth'; error: string; description: string; status?: number }
  | {
      kind: 'custom';
      status: number;
      json?: unknown;
      text?: string;
      headers?: Record<string, string>;
    };

/** Which requests a fault hits and how often. */
export interface FaultSpec {
  /** HTTP method; any when absent. */
  method?: string;
  /** Path (without query), exact or with `*` wildcards, e.g. `/v1/me/player/*`; any when absent. */
  path?: string;
  /** Hit the next N matching requests, then retire; always when absent. */
  times?: number;
  /** Hit a matching request with this probability (seeded, so runs repeat). */
  probability?: number;
  /** Added latency in real ms (for client timeout tests). */
  delayMs?: number;
  /** The answer; absent = only the delay. */
  response?: FaultResponse;
}

/** A fault as stored, with its ID and remaining count. */
export interface Fault extends FaultSpec {
  id: string;
  hits: number;
}

/** Rolling-window limiter settings (virtual clock), so load tests trip a 429 naturally. */
export interface RateLimitSettings {
  maxRequests: number;
  windowMs: number;
  retryAfter: number;
  variant?: 'rate' | 'quota' | 'empty';
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/**
 * The reply an injected fault produces.
 * @example
 * faultReply({ kind: 'rate-limit', retryAfter: 3600, variant: 'quota' });
 */
export function faultReply(response: FaultResponse): Reply {
  switch (response.kind) {
    case 'token-expired':
      return errorReply(401, 'The access token expired');
    case 'token-invalid':
      return errorReply(401, 'Invalid access token');
    case 'rate-limit': {
      const headers = { 'retry-after': String(response.retryAfter ?? 1) };
      if (response.variant === 'empty') return { status: 429, text: '', headers };
      const reply =
        response.variant === 'quota'
          ? errorReply(429, 'Too many requests', 'QUOTA_EXCEEDED')
          : errorReply(429, 'API rate limit exceeded');
      return { ...reply, headers };
    }
    case 'server-error': {
      const status = response.status ?? 500;
      const message = { 500: 'Server error.', 502: 'Bad gateway', 503: 'Service unavailable' }[
        status
      ];
      if (response.body === 'empty') return { status, text: '' };
      if (response.body === 'html') {
        return {
          status,
          text: `<html><body><h1>${status} ${message}</h1></body></html>`,
          contentType: 'text/html',
        };
      }
      return errorReply(status, message);
    }
    case 'no-active-device':
      return errorReply(404, 'Player command failed: No active device found', 'NO_ACTIVE_DEVICE');
    case 'premium-required':
      return errorReply(403, 'Player command failed: Premium required', 'PREMIUM_REQUIRED');
    case 'restriction':
      return errorReply(
        403,
        'Player command failed: Restriction violated',
        response.reason ?? 'UNKNOWN',
      );
    case 'volume-disallowed':
      return errorReply(
        403,
        'Player command failed: Cannot control device volume',
        'VOLUME_CONTROL_DISALLOW',
      );
    case 'accepted':
      return { status: 202, text: '' };
    case 'oauth':
      return {
        status: response.status ?? 400,
        json: { error: response.error, error_description: response.description },
      };
    case 'custom': {
      const reply: Reply = { status: response.status };
      if (response.json !== undefined) reply.json = response.json;
      if (response.text !== undefined) reply.text = response.text;
      if (response.headers) reply.headers = response.headers;
      return reply;
    }
  }
}

/** Holds faults and the optional rate limiter; the server asks it before routing. */
export class FaultEngine {
  #faults: Fault[] = [];
  #seq = 0;
  #rng = new Prng(4242);
  #limit: RateLimitSettings | null = null;
  #recent: number[] = [];

  /**
   * Add a fault; returns its ID.
   * @example
   * engine.add({ method: 'GET', path: '/v1/me', times: 2, response: { kind: 'token-expired' } });
   */
  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: `fault-${++this.#seq}`, hits: 0 };
    this.#faults.push(fault);
    return fault;
  }

  remove(id: string): boolean {
    const before = this.#faults.length;
    this.#faults = this.#faults.filter((f) => f.id !== id);
    return this.#faults.length !== before;
  }

  clear(): void {
    this.#faults = [];
    this.#limit = null;
    this.#recent = [];
  }

  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }));
  }

  /** `null` turns the limiter off. */
  setRateLimit(settings: RateLimitSettings | null): void {
    this.#limit = settings;
    this.#recent = [];
  }

  /** The first live fault for this request (consuming one of its `times`). */
  match(method: string, path: string): Fault | undefined {
    for (const fault of this.#faults) {
      if (fault.method && fault.method.toUpperCase() !== method) continue;
      if (fault.path && !globToRegExp(fault.path).test(path)) continue;
      if (fault.probability !== undefined && this.#rng.next() >= fault.probability) continue;
      fault.hits++;
      if (fault.times !== undefined && fault.hits >= fault.times) this.remove(fault.id);
      return fault;
    }
    return undefined;
  }

  /** A 429 when the rolling window is full (counts Web API requests only). */
  limit(now: number): Reply | undefined {
    const limit = this.#limit;
    if (!limit) return undefined;
    this.#recent = this.#recent.filter((t) => t > now - limit.windowMs);
    if (this.#recent.length >= limit.maxRequests) {
      return faultReply({
        kind: 'rate-limit',
        retryAfter: limit.retryAfter,
        variant: limit.variant ?? 'rate',
      });
    }
    this.#recent.push(now);
    return undefined;
  }
}
