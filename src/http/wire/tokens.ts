import { z } from 'zod';
import { ExpiryDays } from '../../auth/expiry.ts';
import { USER_READ, USER_WRITE } from '../openapi/security.ts';
import { errorAnswers, json, Success } from './answers.ts';
import { IssuedToken, password } from './auth.ts';
import { named } from './named.ts';

const timestamp = (what: string) => z.number().describe(`${what}, in UNIX seconds`);

/** An API token as its owner sees it (never the JWT itself). */
export const TokenInfo = named(
  'TokenInfo',
  'output',
  z.object({
    id: z.string(),
    name: z.string(),
    created_at: timestamp('when it was made'),
    expires_at: timestamp('when it expires (null: never)').nullable(),
    last_used_at: timestamp('when it was last used (null: never)').nullable(),
  }),
  'An API token as its owner sees it (never the JWT itself).',
);
export type TokenInfo = z.output<typeof TokenInfo>;

/** `GET /tokens`: the caller's tokens. */
export const TokenList = named('TokenList', 'output', z.object({ tokens: z.array(TokenInfo) }));
export type TokenList = z.output<typeof TokenList>;

/** `POST /tokens`: a new token for the caller, password re-entered. */
export const CreateTokenBody = named(
  'CreateTokenBody',
  'input',
  z.object({
    password: password('re-enter your password', 're-enter your password'),
    name: z.string().max(100).optional(),
    expiry_days: ExpiryDays,
  }),
  'A new token for the caller, password re-entered.',
);
export type CreateTokenBody = z.output<typeof CreateTokenBody>;

/** `DELETE /tokens/{id}`: which token. */
export const TokenIdParams = z.object({
  id: z.string().describe('the token id (from GET /tokens or its creation)'),
});

export { IssuedToken };

/** The schemas of the token routes (routes/tokens.ts). */
export const tokenSchemas = {
  list: {
    operationId: 'listTokens',
    tags: ['tokens'],
    summary: "The caller's API tokens (never the JWTs)",
    security: USER_READ,
    response: { 200: json('The tokens.', TokenList), ...errorAnswers([401, 412]) },
  },
  create: {
    operationId: 'createOwnToken',
    tags: ['tokens'],
    summary: 'A new API token for the caller',
    description: 'The password is re-entered: a wrong one is 403 (the session stays valid).',
    security: USER_WRITE,
    body: CreateTokenBody,
    response: {
      201: json('A new token.', IssuedToken),
      ...errorAnswers([400, 401, 403, 412, 413, 415, 429]),
    },
  },
  revoke: {
    operationId: 'revokeToken',
    tags: ['tokens'],
    summary: 'Revoke a token: it gets 401 at once, and its WebSockets close',
    security: USER_WRITE,
    params: TokenIdParams,
    response: { 200: json('Revoked.', Success), ...errorAnswers([401, 403, 404, 412]) },
  },
} as const;
