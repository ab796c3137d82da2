import { z } from 'zod';
import { AuthBody } from '../routes/auth.ts';
import { embedSchema } from './embed-schema.ts';
import type { JsonSchema } from './types.ts';

// The bodies are the zod schemas the routes parse with (routes/auth.ts); `POST /register`,
// `/login` and `/tokens` parse subsets of the same fields.
const Credentials = AuthBody.pick({ username: true, password: true });
const RegisterBody = Credentials.extend({ confirm_password: z.string().optional() });
const CreateTokenBody = AuthBody.pick({ password: true, name: true, expiry_days: true });

const timestamp = (what: string): JsonSchema => ({
  type: 'number',
  description: `${what}, in UNIX seconds`,
});
const nullableTimestamp = (what: string): JsonSchema => ({
  anyOf: [timestamp(what), { type: 'null' }],
});

/** What the routes answer (their handlers build these objects; see routes/*.ts). */
const ANSWERS: Record<string, JsonSchema> = {
  IssuedToken: {
    type: 'object',
    description: 'A new API token: the only time its JWT is shown.',
    properties: {
      token: { type: 'string', description: 'the JWT, for "Authorization: Bearer" or X-Token' },
      id: { type: 'string', description: 'the token id, to revoke it (DELETE /tokens/{id})' },
      name: { type: 'string' },
      expires_at: nullableTimestamp('when it expires (null: never)'),
    },
    required: ['token', 'id', 'name', 'expires_at'],
  },
  TokenInfo: {
    type: 'object',
    description: 'An API token as its owner sees it (never the JWT itself).',
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      created_at: timestamp('when it was made'),
      expires_at: nullableTimestamp('when it expires (null: never)'),
      last_used_at: nullableTimestamp('when it was last used (null: never)'),
    },
    required: ['id', 'name', 'created_at', 'expires_at', 'last_used_at'],
  },
  TokenList: {
    type: 'object',
    properties: { tokens: { type: 'array', items: { $ref: '#/components/schemas/TokenInfo' } } },
    required: ['tokens'],
  },
  AuthStatus: {
    type: 'object',
    description: "The web UI's view of the session: no credentials needed.",
    properties: {
      registration_open: { type: 'boolean', description: 'true while no user exists' },
      user: {
        anyOf: [
          { type: 'object', properties: { username: { type: 'string' } }, required: ['username'] },
          { type: 'null' },
        ],
      },
      csrf_token: {
        type: ['string', 'null'],
        description: 'the X-CSRF-Token a logged-in browser sends on state-changing requests',
      },
    },
    required: ['registration_open', 'user', 'csrf_token'],
  },
  Session: {
    type: 'object',
    description: 'A new browser session (the session_token cookie is set with it).',
    properties: {
      username: { type: 'string' },
      csrf_token: { type: 'string', description: 'send it as X-CSRF-Token with the cookie' },
      expires_at: timestamp('when the session ends (POST /login only)'),
    },
    required: ['username', 'csrf_token'],
  },
  Success: {
    type: 'object',
    properties: { success: { const: true } },
    required: ['success'],
  },
  ReloadResult: {
    type: 'object',
    properties: {
      reloaded: { const: true },
      warnings: {
        type: 'array',
        items: { type: 'string' },
        description: 'loaded, but worth a look',
      },
      restart_needed: {
        type: 'array',
        items: { type: 'string' },
        description: 'settings that changed but take effect at the next start',
      },
    },
    required: ['reloaded', 'warnings', 'restart_needed'],
  },
  HealthStatus: {
    type: 'object',
    description: 'The status alone, nothing else (unauthenticated).',
    properties: { status: { type: 'string', enum: ['ok', 'ready', 'unavailable'] } },
    required: ['status'],
  },
};

/**
 * The request bodies (from the routes' zod schemas) and answers of the routes besides
 * `/execute`: authentication, tokens, reload and health.
 *
 * @example
 * routeSchemas().AuthBody.required; // ['username', 'password']
 */
export function routeSchemas(): Record<string, JsonSchema> {
  const bodies: Record<string, JsonSchema> = {};
  const add = (key: string, schema: z.ZodType, description: string) => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    // Passwords are secrets, as the catalog marks an action's (core/action.ts `secret()`).
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, property] of Object.entries(properties))
      if (name.includes('password')) property.secret = true;
    const embedded = embedSchema(json, key);
    Object.assign(bodies, embedded.defs);
    bodies[key] = { ...embedded.schema, description };
  };
  add('AuthBody', AuthBody, 'Credentials traded for an API token (Platypush-compatible).');
  add('Credentials', Credentials, 'A user name and password.');
  add('RegisterBody', RegisterBody, 'The first user: registration closes once one exists.');
  add('CreateTokenBody', CreateTokenBody, 'A new token for the caller, password re-entered.');
  return { ...bodies, ...ANSWERS };
}
