import { z } from 'zod';
import { ExpiryDays } from '../../auth/expiry.ts';
import { ANONYMOUS, USER_WRITE } from '../openapi/security.ts';
import { errorAnswers, json, noBody, Success } from './answers.ts';
import { named } from './named.ts';

const timestamp = (what: string) => z.number().describe(`${what}, in UNIX seconds`);
const nullableTimestamp = (what: string) => timestamp(what).nullable();

/**
 * A password field: a secret, write-only string (generated clients and forms mask it).
 *
 * @example
 * z.object({ password: password('re-enter your password') });
 */
export function password(error: string, empty = 'must not be empty'): z.ZodString {
  return z
    .string({ error })
    .min(1, empty)
    .max(1024)
    .meta({ secret: true, writeOnly: true, format: 'password' });
}

const username = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64);

/** A user name and password (`POST /login`, and the base of the other bodies). */
export const Credentials = named(
  'Credentials',
  'input',
  z.object({ username, password: password('must be a string') }),
  'A user name and password.',
);
export type Credentials = z.output<typeof Credentials>;

/** `POST /register`: the first user (registration closes once one exists). */
export const RegisterBody = named(
  'RegisterBody',
  'input',
  z.object({
    username,
    password: password('must be a string'),
    confirm_password: z.string().optional(),
  }),
  'The first user: registration closes once one exists.',
);
export type RegisterBody = z.output<typeof RegisterBody>;

/** `POST /auth`: Platypush-compatible credentials, plus an optional token name and lifetime. */
export const AuthBody = named(
  'AuthBody',
  'input',
  z.object({
    username,
    password: password('must be a string'),
    expiry_days: ExpiryDays,
    name: z.string().max(100).optional(),
  }),
  'Credentials traded for an API token (Platypush-compatible).',
);
export type AuthBody = z.output<typeof AuthBody>;

/** A new API token: the only time its JWT is shown (`POST /auth`, `POST /tokens`). */
export const IssuedToken = named(
  'IssuedToken',
  'output',
  z.object({
    token: z.string().describe('the JWT, for "Authorization: Bearer" or X-Token'),
    id: z.string().describe('the token id, to revoke it (DELETE /tokens/{id})'),
    name: z.string(),
    expires_at: nullableTimestamp('when it expires (null: never)'),
  }),
  'A new API token: the only time its JWT is shown.',
);
export type IssuedToken = z.output<typeof IssuedToken>;

/** `GET /auth/status`: the web UI's view of the session. */
export const AuthStatus = named(
  'AuthStatus',
  'output',
  z.object({
    registration_open: z.boolean().describe('true while no user exists'),
    user: z.object({ username: z.string() }).nullable(),
    csrf_token: z
      .string()
      .nullable()
      .describe('the X-CSRF-Token a logged-in browser sends on state-changing requests'),
  }),
  "The web UI's view of the session: no credentials needed.",
);
export type AuthStatus = z.output<typeof AuthStatus>;

/** A new browser session (`POST /register`, `POST /login`): the cookie is set with it. */
export const Session = named(
  'Session',
  'output',
  z.object({
    username: z.string(),
    csrf_token: z.string().describe('send it as X-CSRF-Token with the cookie'),
    expires_at: timestamp('when the session ends (POST /login only)').optional(),
  }),
  'A new browser session (the session_token cookie is set with it).',
);
export type Session = z.output<typeof Session>;

// Documented only: a `redirect` that is not a path of this site falls back to "/".
const RedirectQuery = z.object({
  redirect: z
    .string()
    .max(2048)
    .optional()
    .describe(
      'With a form body: where the 302 goes, when it stays on this site (else "/"). Ignored for JSON.',
    ),
});

const setsCookie = {
  'Set-Cookie': {
    type: 'string',
    description: 'session_token=...; HttpOnly; SameSite=Strict; Path=/',
  },
};
const formRedirect = noBody(
  'A form body: the session cookie is set and the browser goes to `redirect`.',
  { Location: { type: 'string' } },
);

// `/register` and `/login` also take Platypush's HTML forms, and then answer 302.
const jsonOrForm = ['application/json', 'application/x-www-form-urlencoded'];

/** The schemas of the authentication routes (routes/auth.ts). */
export const authSchemas = {
  status: {
    operationId: 'authStatus',
    tags: ['auth'],
    summary: 'Whether registration is open, and who is logged in (session cookie)',
    security: ANONYMOUS,
    response: { 200: json('The status.', AuthStatus) },
  },
  register: {
    operationId: 'register',
    tags: ['auth'],
    summary: 'Create the first user and log in',
    description:
      'Only while no user exists: then 403. Passwords have 8 characters or more. A browser ' +
      'posting from another site (`Origin`, `Sec-Fetch-Site`) is refused with 403, and so is a ' +
      'Host that is not an IP address, localhost or in `backend.http.allowed_hosts`.',
    security: ANONYMOUS,
    querystring: RedirectQuery,
    consumes: jsonOrForm,
    body: RegisterBody,
    response: {
      201: json('Registered and logged in (JSON body).', Session),
      302: formRedirect,
      ...errorAnswers([400, 403, 409, 413, 415]),
    },
    responseHeaders: { 201: setsCookie },
  },
  login: {
    operationId: 'login',
    tags: ['auth'],
    summary: 'Log in: a session cookie for the web UI',
    description:
      'A browser posting from another site (`Origin`, `Sec-Fetch-Site`) is refused with 403.',
    security: ANONYMOUS,
    querystring: RedirectQuery,
    consumes: jsonOrForm,
    body: Credentials,
    response: {
      200: json('Logged in (JSON body).', Session),
      302: formRedirect,
      ...errorAnswers([400, 401, 403, 413, 415, 429]),
    },
    responseHeaders: { 200: setsCookie },
  },
  logout: {
    operationId: 'logout',
    tags: ['auth'],
    summary: 'End the session and clear its cookie',
    description: 'Without a session cookie it only clears the cookie.',
    security: [...USER_WRITE, {}],
    response: { 200: json('Logged out.', Success), ...errorAnswers([401, 403]) },
  },
  token: {
    operationId: 'createToken',
    tags: ['auth'],
    summary: 'Trade a user name and password for an API token',
    description:
      'Platypush-compatible. `expiry_days` absent or null: the token does not expire (it can ' +
      'still be revoked). Attempts are throttled per user name and client address.',
    security: ANONYMOUS,
    body: AuthBody,
    response: {
      200: json('A new token.', IssuedToken),
      ...errorAnswers([400, 401, 412, 413, 415, 429]),
    },
  },
} as const;
