import { errorRefs } from './error-responses.ts';
import { jsonContent } from './names.ts';
import { USER_READ, USER_WRITE } from './security.ts';
import type { OpenApiPaths } from './types.ts';

/**
 * The caller's API tokens (routes/tokens.ts): list, create (password re-entered), revoke.
 *
 * @example
 * tokenPaths()['/tokens/{id}'].delete.operationId; // 'revokeToken'
 */
export function tokenPaths(): OpenApiPaths {
  return {
    '/tokens': {
      get: {
        operationId: 'listTokens',
        tags: ['tokens'],
        summary: "The caller's API tokens (never the JWTs)",
        security: USER_READ,
        responses: {
          '200': { description: 'The tokens.', content: jsonContent('TokenList') },
          ...errorRefs([401, 412]),
        },
      },
      post: {
        operationId: 'createOwnToken',
        tags: ['tokens'],
        summary: 'A new API token for the caller',
        description: 'The password is re-entered: a wrong one is 403 (the session stays valid).',
        security: USER_WRITE,
        requestBody: { required: true, content: jsonContent('CreateTokenBody') },
        responses: {
          '201': { description: 'A new token.', content: jsonContent('IssuedToken') },
          ...errorRefs([400, 401, 403, 412, 413, 415, 429]),
        },
      },
    },
    '/tokens/{id}': {
      delete: {
        operationId: 'revokeToken',
        tags: ['tokens'],
        summary: 'Revoke a token: it gets 401 at once, and its WebSockets close',
        security: USER_WRITE,
        parameters: [
          {
            in: 'path',
            name: 'id',
            required: true,
            description: 'the token id (from GET /tokens or its creation)',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': { description: 'Revoked.', content: jsonContent('Success') },
          ...errorRefs([401, 403, 404, 412]),
        },
      },
    },
  };
}
