import { z } from 'zod';
import { ANONYMOUS, USER_READ, USER_WRITE } from '../openapi/security.ts';
import { errorAnswers, json } from './answers.ts';
import { named } from './named.ts';

/** `GET /healthz` and `GET /readyz`: the status alone. */
export const HealthStatus = named(
  'HealthStatus',
  'output',
  z.object({ status: z.enum(['ok', 'ready', 'unavailable']) }),
  'The status alone, nothing else (unauthenticated).',
);
export type HealthStatus = z.output<typeof HealthStatus>;

/** `GET /readyz`: the status, and for a caller with credentials the plugins' links. */
export const ReadyStatus = named(
  'ReadyStatus',
  'output',
  z.object({
    status: z.enum(['ready', 'unavailable']),
    plugins: z
      .record(
        z.string(),
        z.object({
          connected: z.boolean(),
          detail: z.string().optional().describe('what is wrong, or where it is connected'),
        }),
      )
      .optional()
      .describe(
        'only for a caller with credentials: each plugin that reports its link to what it drives (a bridge, a broker), or that failed to start. A plugin that is not connected does not make the service unready',
      ),
  }),
  'The status; nothing else without credentials.',
);
export type ReadyStatus = z.output<typeof ReadyStatus>;

/** `POST /reload`: the configuration was taken. */
export const ReloadResult = named(
  'ReloadResult',
  'output',
  z.object({
    reloaded: z.literal(true),
    warnings: z.array(z.string()).describe('loaded, but worth a look'),
    restart_needed: z
      .array(z.string())
      .describe('settings that changed but take effect at the next start'),
  }),
);
export type ReloadResult = z.output<typeof ReloadResult>;

const text = (description: string) => ({
  description,
  content: { 'text/plain': { schema: z.string() } },
});

/** The schemas of the operators' routes: health, readiness, metrics, the document, reload. */
export const operationSchemas = {
  healthz: {
    operationId: 'healthz',
    tags: ['operations'],
    summary: 'Liveness: the process answers',
    security: ANONYMOUS,
    response: { 200: json('{"status": "ok"}', HealthStatus) },
  },
  readyz: {
    operationId: 'readyz',
    tags: ['operations'],
    summary: 'Readiness: the database takes writes',
    security: ANONYMOUS,
    response: {
      200: json('{"status": "ready"}', ReadyStatus),
      503: json('{"status": "unavailable"}', ReadyStatus),
    },
  },
  metrics: {
    operationId: 'metrics',
    tags: ['operations'],
    summary: 'Prometheus metrics (text exposition format)',
    description:
      "Prometheus text exposition format. Needs the API's credentials; with " +
      '`backend.http.metrics: {port, bind_address}` the same text is also served without ' +
      'authentication on that separate address.',
    security: USER_READ,
    response: { 200: text('The metrics.'), ...errorAnswers([401, 412]) },
  },
  openapi: {
    operationId: 'openapi',
    tags: ['operations'],
    summary: 'This document',
    description:
      'Generated from the running registry: a reload that changes the procedures changes it. ' +
      'Needs the same credentials as the catalog (inspect.* through /execute).',
    security: USER_READ,
    response: {
      200: json('The OpenAPI 3.1 document.', z.looseObject({})),
      ...errorAnswers([401, 412]),
    },
  },
  reload: {
    operationId: 'reload',
    tags: ['operations'],
    summary: 'Reload the configuration and scripts (as SIGHUP)',
    description: 'A configuration that cannot be used is refused (400) and the running one kept.',
    security: USER_WRITE,
    response: {
      200: json('Reloaded.', ReloadResult),
      ...errorAnswers([400, 401, 403, 412]),
    },
  },
} as const;
