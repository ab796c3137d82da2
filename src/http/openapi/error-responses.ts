import { ErrorCodes } from '../../core/errors.ts';
import { HTTP_STATUS } from '../error-status.ts';
import { schemaRef } from './names.ts';
import type { OpenApiObject } from './types.ts';

/**
 * Every error status Pipit answers, from the closed table of error codes and their statuses
 * (core/errors.ts, http/error-status.ts), in ascending order. ACTION_FAILED is not one: on
 * `/execute` it is a 200 whose response carries `errors`.
 *
 * @example
 * ERROR_STATUSES.includes(412); // true (NO_USER)
 */
export const ERROR_STATUSES: readonly number[] = [
  ...new Set(ErrorCodes.map((code) => HTTP_STATUS[code]).filter((s) => s !== 200)),
].sort((a, b) => a - b);

const HEADERS: Record<number, OpenApiObject> = {
  401: {
    'WWW-Authenticate': {
      description: 'Bearer realm="pipit"',
      schema: { type: 'string' },
    },
  },
  429: {
    'Retry-After': {
      description: 'seconds to wait before trying again',
      schema: { type: 'integer', minimum: 0 },
    },
  },
};

/**
 * What an error status means: the error codes that map to it, and that the body says the rest.
 *
 * @example
 * errorDescription(412); // 'NO_USER: a response message whose `errors` say ...'
 */
export function errorDescription(status: number): string {
  const codes = ErrorCodes.filter((code) => HTTP_STATUS[code] === status);
  return `${codes.join(' or ')}: a response message whose \`errors\` say what failed and what is expected.`;
}

/**
 * The `components.responses` of the errors: `Error<status>`, each a response message whose
 * `errors` say what failed and how to fix it, described by the error codes that map to it. An
 * operation's error answer with that very description is a reference to it (see document.ts).
 *
 * @example
 * errorResponses().Error404.description; // 'NOT_FOUND: ...'
 */
export function errorResponses(): Record<string, OpenApiObject> {
  const out: Record<string, OpenApiObject> = {};
  for (const status of ERROR_STATUSES) {
    out[`Error${status}`] = {
      description: errorDescription(status),
      ...(HEADERS[status] ? { headers: HEADERS[status] } : {}),
      content: { 'application/json': { schema: schemaRef('ResponseMessage') } },
    };
  }
  return out;
}
