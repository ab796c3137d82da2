import { SESSION_COOKIE } from '../guard.ts';
import type { OpenApiObject, SecurityRequirement } from './types.ts';

/**
 * The ways to authenticate (http/guard.ts): a JWT from `POST /auth` as a bearer token or
 * Platypush's `X-Token` header, HTTP Basic, or the web UI's session cookie — with its
 * `X-CSRF-Token` header on state-changing requests.
 *
 * @example
 * securitySchemes().bearerAuth; // { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', ... }
 */
export function securitySchemes(): Record<string, OpenApiObject> {
  return {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'An API token from POST /auth, POST /tokens or Settings -> Tokens.',
    },
    xToken: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Token',
      description: "The same token in Platypush's header.",
    },
    basicAuth: {
      type: 'http',
      scheme: 'basic',
      description: 'User name and password (throttled like logins; verified once a minute).',
    },
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description: 'The web UI session (HttpOnly, SameSite=Strict), from POST /login or /register.',
    },
    csrfToken: {
      type: 'apiKey',
      in: 'header',
      name: 'X-CSRF-Token',
      description:
        'With the session cookie on state-changing requests: the csrf_token of /login or /auth/status.',
    },
  };
}

/**
 * Who may call a reading route (GET): a token, Basic credentials, or a session.
 *
 * @example
 * const op = { security: USER_READ, responses: {} };
 */
export const USER_READ: SecurityRequirement[] = [
  { bearerAuth: [] },
  { xToken: [] },
  { basicAuth: [] },
  { sessionCookie: [] },
];

/**
 * Who may call a state-changing route: as {@link USER_READ}, but a session needs its CSRF header.
 *
 * @example
 * const op = { security: USER_WRITE, responses: {} };
 */
export const USER_WRITE: SecurityRequirement[] = [
  { bearerAuth: [] },
  { xToken: [] },
  { basicAuth: [] },
  { sessionCookie: [], csrfToken: [] },
];

/**
 * A route anyone may call.
 *
 * @example
 * const op = { security: ANONYMOUS, responses: {} };
 */
export const ANONYMOUS: SecurityRequirement[] = [];
