import { errorRefs } from './error-responses.ts';
import { jsonContent } from './names.ts';
import { ANONYMOUS, USER_READ, USER_WRITE } from './security.ts';
import type { OpenApiPaths } from './types.ts';

/**
 * What operators and their tools call: `/healthz`, `/readyz`, `/metrics`, `/openapi.json` itself
 * and `POST /reload`.
 *
 * @example
 * operationPaths()['/readyz'].get.responses['503']; // { description: ..., content: ... }
 */
export function operationPaths(): OpenApiPaths {
  return {
    '/healthz': {
      get: {
        operationId: 'healthz',
        tags: ['operations'],
        summary: 'Liveness: the process answers',
        security: ANONYMOUS,
        responses: {
          '200': { description: '{"status": "ok"}', content: jsonContent('HealthStatus') },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz',
        tags: ['operations'],
        summary: 'Readiness: the database takes writes',
        security: ANONYMOUS,
        responses: {
          '200': { description: '{"status": "ready"}', content: jsonContent('HealthStatus') },
          '503': {
            description: '{"status": "unavailable"}',
            content: jsonContent('HealthStatus'),
          },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['operations'],
        summary: 'Prometheus metrics (text exposition format)',
        description:
          "Prometheus text exposition format. Needs the API's credentials; with " +
          '`backend.http.metrics: {port, bind_address}` the same text is also served without ' +
          'authentication on that separate address.',
        security: USER_READ,
        responses: {
          '200': {
            description: 'The metrics.',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          ...errorRefs([401, 412]),
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        tags: ['operations'],
        summary: 'This document',
        description:
          'Generated from the running registry: a reload that changes the procedures changes it. ' +
          'Needs the same credentials as the catalog (inspect.* through /execute).',
        security: USER_READ,
        responses: {
          '200': {
            description: 'The OpenAPI 3.1 document.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          ...errorRefs([401, 412]),
        },
      },
    },
    '/reload': {
      post: {
        operationId: 'reload',
        tags: ['operations'],
        summary: 'Reload the configuration and scripts (as SIGHUP)',
        description:
          'A configuration that cannot be used is refused (400) and the running one kept.',
        security: USER_WRITE,
        responses: {
          '200': { description: 'Reloaded.', content: jsonContent('ReloadResult') },
          ...errorRefs([400, 401, 403, 412]),
        },
      },
    },
  };
}
