import type { AccessToken } from '../accounts/store.ts';
import type { EmuRequest, Reply } from '../http.ts';
import { ApiError } from '../http.ts';
import type { EmulatorState, UserState } from '../state/store.ts';

/** What a Web API handler gets. */
export interface ApiContext {
  state: EmulatorState;
  req: EmuRequest;
  token: AccessToken;
  /** The token's user; route handlers with `user: false` must not read it. */
  us: UserState;
  /** `http://127.0.0.1:PORT/v1`. */
  api: string;
  now: number;
}

/** One Web API operation; `path` uses the spec's template syntax, relative to `/v1`. */
export interface ApiRoute {
  method: string;
  path: string;
  /** Scopes the token must hold: a list = all of them; `{ anyOf }` = at least one. */
  scopes?: string[] | { anyOf: string[] };
  /** Needs a user token (default true); search works with client-credentials tokens. */
  user?: boolean;
  handler(ctx: ApiContext): Reply;
}

/**
 * 403 "Insufficient client scope" unless the token holds one of `anyOf`.
 * @example
 * requireScope(ctx, ['playlist-modify-public']);
 */
export function requireScope(ctx: ApiContext, anyOf: string[]): void {
  if (!anyOf.some((s) => ctx.token.scopes.has(s)))
    throw new ApiError(403, 'Insufficient client scope');
}

/**
 * The JSON 200 reply.
 * @example
 * return ok({ devices: [] });
 */
export function ok(json: unknown, status = 200): Reply {
  return { status, json };
}

/**
 * A 200 with an empty body (library writes, playlist detail changes).
 * @example
 * return empty200();
 */
export function empty200(): Reply {
  return { status: 200, text: '' };
}
