import type { AccessToken } from '../accounts/store.ts';
import type { EmuRequest, Reply } from '../http.ts';
import { ApiError, errorReply } from '../http.ts';
import type { EmulatorState } from '../state/store.ts';
import { libraryRoutes } from './library.ts';
import { playerCommandRoutes } from './player-commands.ts';
import { playerReadRoutes } from './player-read.ts';
import { playlistItemRoutes } from './playlist-items.ts';
import { playlistRoutes } from './playlists.ts';
import { REMOVED_OPERATIONS } from './removed.ts';
import { searchRoutes } from './search.ts';
import type { ApiContext, ApiRoute } from './types.ts';

/** Every Web API operation the emulator implements (templates relative to `/v1`). */
export const API_ROUTES: readonly ApiRoute[] = [
  ...playerReadRoutes,
  ...playerCommandRoutes,
  ...playlistRoutes,
  ...playlistItemRoutes,
  ...libraryRoutes,
  ...searchRoutes,
];

interface Compiled<T> {
  method: string;
  regex: RegExp;
  names: string[];
  value: T;
}

function compile<T>(method: string, template: string, value: T): Compiled<T> {
  const names: string[] = [];
  const pattern = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { method, regex: new RegExp(`^${pattern}$`), names, value };
}

const compiled = API_ROUTES.map((r) => compile(r.method, r.path, r));
const removed = REMOVED_OPERATIONS.map(([m, p]) => compile(m, p, p));

function find<T>(table: Compiled<T>[], method: string, path: string) {
  let pathMatched = false;
  for (const entry of table) {
    const m = entry.regex.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (entry.method !== method) continue;
    const params: Record<string, string> = {};
    entry.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)));
    return { entry, params, pathMatched };
  }
  return { entry: undefined, params: {}, pathMatched };
}

function authenticate(state: EmulatorState, req: EmuRequest, now: number): AccessToken {
  const header = req.headers.authorization;
  if (!header) throw new ApiError(401, 'No token provided');
  const match = /^Bearer (\S+)$/.exec(header);
  if (!match) throw new ApiError(400, 'Only valid bearer authentication supported');
  const token = state.accounts.accessTokens.get(match[1]!);
  if (!token || token.revoked) throw new ApiError(401, 'Invalid access token');
  if (now >= token.expiresAt) throw new ApiError(401, 'The access token expired');
  return token;
}

/**
 * Route one `/v1/...` request: authenticate, check the app allow-list and scopes, run the handler.
 * @example
 * const reply = handleApi(state, req);
 */
export function handleApi(state: EmulatorState, req: EmuRequest): Reply {
  const path = req.path.slice('/v1'.length);
  const now = state.clock.now();
  try {
    const { entry, params, pathMatched } = find(compiled, req.method, path);
    if (!entry) {
      const gone = find(removed, req.method, path);
      if (gone.entry) {
        authenticate(state, req, now);
        if (state.config.mode === 'development') return errorReply(403, 'Forbidden');
        return errorReply(501, 'Not implemented by the emulator');
      }
      if (pathMatched || gone.pathMatched) return errorReply(405, 'Method not allowed');
      return errorReply(404, 'Service not found');
    }
    const route = entry.value;
    req.params = params;
    const token = authenticate(state, req, now);
    const userState = token.userId === null ? undefined : state.users.get(token.userId);
    if (route.user !== false && !userState)
      throw new ApiError(401, 'Valid user authentication required');
    const app = state.accounts.apps.get(token.clientId);
    if (userState && app?.allowedUsers && !app.allowedUsers.includes(userState.user.id)) {
      throw new ApiError(403, 'Forbidden');
    }
    if (route.scopes) {
      const needed = Array.isArray(route.scopes) ? route.scopes : route.scopes.anyOf;
      const okScopes = Array.isArray(route.scopes)
        ? needed.every((s) => token.scopes.has(s))
        : needed.some((s) => token.scopes.has(s));
      if (!okScopes) throw new ApiError(403, 'Insufficient client scope');
    }
    if (userState) userState.player.settle(now);
    const ctx: ApiContext = { state, req, token, us: userState!, api: state.api, now };
    return route.handler(ctx);
  } catch (error) {
    if (error instanceof ApiError) return errorReply(error.status, error.message, error.reason);
    throw error;
  }
}
