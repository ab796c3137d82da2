import { errorRefs } from './error-responses.ts';
import { jsonContent, schemaRef } from './names.ts';
import { ANONYMOUS, USER_WRITE } from './security.ts';
import type { OpenApiObject, OpenApiPaths } from './types.ts';

// `/register` and `/login` also take Platypush's HTML forms, and then answer 302.
const jsonOrForm = (key: string): OpenApiObject => ({
  required: true,
  content: {
    'application/json': { schema: schemaRef(key) },
    'application/x-www-form-urlencoded': { schema: schemaRef(key) },
  },
});

const redirect = {
  in: 'query',
  name: 'redirect',
  required: false,
  description:
    'With a form body: where the 302 goes, when it stays on this site (else "/"). Ignored for JSON.',
  schema: { type: 'string', maxLength: 2048 },
};

const formRedirect: OpenApiObject = {
  description: 'A form body: the session cookie is set and the browser goes to `redirect`.',
  headers: { Location: { schema: { type: 'string' } } },
};

const setsCookie = {
  'Set-Cookie': {
    description: 'session_token=...; HttpOnly; SameSite=Strict; Path=/',
    schema: { type: 'string' },
  },
};

/**
 * Authentication (routes/auth.ts): `POST /auth` (an API token), `GET /auth/status`, and the web
 * UI's `POST /register`, `/login` and `/logout` (session cookie).
 *
 * @example
 * authPaths()['/auth'].post.operationId; // 'createToken'
 */
export function authPaths(): OpenApiPaths {
  return {
    '/auth': {
      post: {
        operationId: 'createToken',
        tags: ['auth'],
        summary: 'Trade a user name and password for an API token',
        description:
          'Platypush-compatible. `expiry_days` absent or null: the token does not expire (it can ' +
          'still be revoked). Attempts are throttled per user name and client address.',
        security: ANONYMOUS,
        requestBody: { required: true, content: jsonContent('AuthBody') },
        responses: {
          '200': { description: 'A new token.', content: jsonContent('IssuedToken') },
          ...errorRefs([400, 401, 412, 413, 415, 429]),
        },
      },
    },
    '/auth/status': {
      get: {
        operationId: 'authStatus',
        tags: ['auth'],
        summary: 'Whether registration is open, and who is logged in (session cookie)',
        security: ANONYMOUS,
        responses: { '200': { description: 'The status.', content: jsonContent('AuthStatus') } },
      },
    },
    '/register': {
      post: {
        operationId: 'register',
        tags: ['auth'],
        summary: 'Create the first user and log in',
        description:
          'Only while no user exists: then 403. Passwords have 8 characters or more. A browser ' +
          'posting from another site (`Origin`, `Sec-Fetch-Site`) is refused with 403, and so is a ' +
          'Host that is not an IP address, localhost or in `backend.http.allowed_hosts`.',
        security: ANONYMOUS,
        parameters: [redirect],
        requestBody: jsonOrForm('RegisterBody'),
        responses: {
          '201': {
            description: 'Registered and logged in (JSON body).',
            headers: setsCookie,
            content: jsonContent('Session'),
          },
          '302': formRedirect,
          ...errorRefs([400, 403, 409, 413, 415]),
        },
      },
    },
    '/login': {
      post: {
        operationId: 'login',
        tags: ['auth'],
        summary: 'Log in: a session cookie for the web UI',
        description:
          'A browser posting from another site (`Origin`, `Sec-Fetch-Site`) is refused with 403.',
        security: ANONYMOUS,
        parameters: [redirect],
        requestBody: jsonOrForm('Credentials'),
        responses: {
          '200': {
            description: 'Logged in (JSON body).',
            headers: setsCookie,
            content: jsonContent('Session'),
          },
          '302': formRedirect,
          ...errorRefs([400, 401, 403, 413, 415, 429]),
        },
      },
    },
    '/logout': {
      post: {
        operationId: 'logout',
        tags: ['auth'],
        summary: 'End the session and clear its cookie',
        description: 'Without a session cookie it only clears the cookie.',
        security: [...USER_WRITE, {}],
        responses: {
          '200': { description: 'Logged out.', content: jsonContent('Success') },
          ...errorRefs([401, 403]),
        },
      },
    },
  };
}
