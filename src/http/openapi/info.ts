import { pipitVersion } from '../../lib/version.ts';
import type { OpenApiObject } from './types.ts';

/**
 * The document's `info`: Pipit's name, its version (lib/version.ts) and what the API is about.
 *
 * @example
 * apiInfo().version; // '0.1.0'
 */
export function apiInfo(): OpenApiObject {
  return {
    title: 'Pipit',
    version: pipitVersion(),
    summary: 'Self-hosted automation service: plugin actions and procedures behind one /execute.',
    description:
      'Every action and procedure runs through `POST /execute` with a request message; its body ' +
      'schema has one entry per action and procedure this instance has now (ActionRequest). Errors ' +
      'have the response-message body (ResponseMessage), never an HTML page (what a web hook ' +
      "listener answers is the listener's choice). " +
      'The WebSockets /ws/events and /ws/requests are not described here (see the README).',
    license: { name: 'MIT', identifier: 'MIT' },
  };
}

/**
 * The document's tags, one per group of routes.
 *
 * @example
 * API_TAGS.map((t) => t.name); // ['actions', 'auth', 'tokens', 'hooks', 'operations']
 */
export const API_TAGS: OpenApiObject[] = [
  { name: 'actions', description: 'Run actions and procedures.' },
  { name: 'auth', description: 'Log in, register, API tokens from credentials.' },
  { name: 'tokens', description: "The caller's API tokens." },
  { name: 'hooks', description: 'Web hooks: unauthenticated, answered by their listener.' },
  { name: 'operations', description: 'Health, readiness, metrics, this document, reload.' },
];
