import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Principal } from '../../auth/auth.ts';
import { PipitError, toPipitError } from '../../core/errors.ts';
import type { Service } from '../../app/service.ts';
import { authenticate, bearerToken, sessionCookie } from '../guard.ts';
import { CloseCode, closeReason } from './frames.ts';

/**
 * The outcome of authenticating an upgrade request: who it is and how to check later that the
 * credentials still hold (revoked or expired token, ended session), or why it was refused.
 */
export type UpgradeAuth =
  | { ok: true; principal: Principal; recheck: () => Promise<PipitError | undefined> }
  | { ok: false; error: PipitError };

const outcomes = new WeakMap<FastifyRequest, UpgradeAuth>();

/**
 * A cookie only proves who the browser is, not which page opened the socket: a page on another
 * site could open one with the user's cookie (cross-site WebSocket hijacking). Browsers always send
 * `Origin` on a WebSocket upgrade, so it must name this host (or a configured CORS origin).
 */
function checkOrigin(service: Service, req: FastifyRequest): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  if (service.config.http?.cors_origins.includes(origin)) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host === undefined || host !== req.host) {
    throw new PipitError(
      'FORBIDDEN',
      `cross-site WebSocket refused: Origin ${JSON.stringify(origin.slice(0, 100))} is not this server (${req.host}); a session cookie is only accepted from the web UI's own pages`,
    );
  }
}

async function authenticateUpgrade(service: Service, req: FastifyRequest): Promise<UpgradeAuth> {
  try {
    const principal = await authenticate(service, req, { allowQuery: true });
    if (principal.via === 'session') {
      checkOrigin(service, req);
      const secret = sessionCookie(req);
      return {
        ok: true,
        principal,
        recheck: async () =>
          service.auth.sessionPrincipal(secret)
            ? undefined
            : new PipitError('UNAUTHORIZED', 'your session has ended: log in again'),
      };
    }
    if (principal.via === 'basic') {
      // Verified at the upgrade; the socket lives as long as the user does.
      return {
        ok: true,
        principal,
        recheck: async () =>
          service.store.users.byId(principal.userId)
            ? undefined
            : new PipitError('UNAUTHORIZED', 'the user of this connection no longer exists'),
      };
    }
    const token = bearerToken(req, true)!;
    return {
      ok: true,
      principal,
      recheck: async () => {
        try {
          await service.auth.verifyToken(token);
          return undefined;
        } catch (err) {
          return toPipitError(err);
        }
      },
    };
  } catch (err) {
    return { ok: false, error: toPipitError(err) };
  }
}

/**
 * A fastify `preValidation` hook for WebSocket routes: authenticates the upgrade request (Bearer
 * or X-Token header, `token` query parameter, or session cookie with a same-site Origin) before the
 * upgrade, so that the socket handler runs synchronously and misses no early frame. It never
 * throws: a refusal is answered after the upgrade by {@link refuse}, since a browser cannot read
 * the HTTP status of a failed handshake.
 *
 * @example
 * app.route({ method: 'GET', url: '/ws/x', preValidation: authenticateUpgradeHook(service), wsHandler });
 */
export function authenticateUpgradeHook(service: Service) {
  return async (req: FastifyRequest): Promise<void> => {
    outcomes.set(req, await authenticateUpgrade(service, req));
  };
}

/**
 * The authentication outcome of an upgraded request (refused when the hook did not run).
 *
 * @example
 * const auth = upgradeAuth(request); if (!auth.ok) return refuse(socket, auth.error, frame);
 */
export function upgradeAuth(req: FastifyRequest): UpgradeAuth {
  return (
    outcomes.get(req) ?? {
      ok: false,
      error: new PipitError('UNAUTHORIZED', 'the connection was not authenticated'),
    }
  );
}

/**
 * Refuses an upgraded socket: one error frame with the full message (in the endpoint's error
 * shape), then close 1008 with a short reason.
 *
 * @example
 * refuse(socket, new PipitError('UNAUTHORIZED', 'the token has been revoked'), (m) => errorFrame([m]));
 */
export function refuse(
  socket: WebSocket,
  error: PipitError,
  frame: (message: string) => string,
): void {
  if (socket.readyState !== socket.OPEN) return;
  socket.send(frame(error.message));
  socket.close(CloseCode.POLICY, closeReason(error.message));
}
