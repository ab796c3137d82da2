import { hostname } from 'node:os';
import { z } from 'zod';
import { RedisConfig } from './redis.ts';

/**
 * `backend.http.metrics`: a listener of its own that serves only `GET /metrics`, without a token,
 * for a Prometheus on a private interface.
 *
 * @example
 * MetricsListenerConfig.parse({ port: 9464 }); // { port: 9464, bind_address: '127.0.0.1' }
 */
export const MetricsListenerConfig = z.strictObject(
  {
    port: z
      .number({
        error: 'expected a TCP port from 0 to 65535 for the unauthenticated /metrics, e.g. 9464',
      })
      .int()
      .min(0)
      .max(65535)
      .describe('TCP port of the unauthenticated /metrics (0 picks a free one)'),
    bind_address: z
      .string()
      .min(1)
      .default('127.0.0.1')
      .describe('address to listen on: anyone who reaches it can read the metrics'),
  },
  { error: 'expected {port, bind_address?}: the address of the unauthenticated /metrics' },
);

/**
 * `backend.http`: present means the HTTP API, WebSockets and web UI are served.
 *
 * @example
 * HttpConfig.parse({}); // { port: 8008, bind_address: '0.0.0.0', ... }
 */
export const HttpConfig = z
  .strictObject({
    port: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .default(8008)
      .describe('TCP port (0 picks a free one)'),
    bind_address: z.string().min(1).default('0.0.0.0').describe('address to listen on'),
    max_body_bytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024)
      .describe('largest request body accepted, in bytes'),
    cors_origins: z
      .array(z.string())
      .default([])
      .describe('origins allowed by CORS; empty = CORS closed'),
    trust_proxy: z.boolean().default(false).describe('read client addresses from X-Forwarded-For'),
    allowed_hosts: z
      .array(
        z
          .string()
          .regex(
            /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/i,
            'must be a host name such as pipit.example.com (no scheme, port or path)',
          ),
      )
      .default([])
      .describe(
        'host names (besides IP addresses and localhost) this server is reached by: while no user exists, /register refuses any other Host header (DNS rebinding)',
      ),
    session_days: z.number().positive().max(365).default(30).describe('lifetime of a web UI login'),
    hook_timeout_seconds: z
      .number()
      .positive()
      .max(3600)
      .default(30)
      .describe('how long /hook/<name> waits for its listener before answering 504'),
    login_attempts: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe(
        'failed logins per user name from one client address (3x per address) per 15 minutes before 429',
      ),
    headers_timeout_seconds: z
      .number()
      .min(0.1)
      .max(600)
      .default(20)
      .describe('a client must send its request headers within this time, or is disconnected'),
    request_timeout_seconds: z
      .number()
      .min(0.1)
      .max(3600)
      .default(60)
      .describe('a client must send its whole request (headers and body) within this time'),
    idle_timeout_seconds: z
      .number()
      .min(0.1)
      .max(3600)
      .default(65)
      .describe('a kept-alive connection with no request for this long is closed'),
    max_connections: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(4096)
      .describe('open connections (HTTP and WebSocket) above which new ones are refused'),
    max_connections_per_address: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(256)
      .describe(
        'open connections from one client address above which its new ones are refused (behind a reverse proxy, every client has the address of the proxy: raise it)',
      ),
    unauthenticated_idle_timeout_seconds: z
      .number()
      .min(0.1)
      .max(3600)
      .default(5)
      .describe(
        'a kept-alive connection that has carried no authenticated request is closed after this long idle (idle_timeout_seconds if shorter)',
      ),
    shutdown_grace_seconds: z
      .number()
      .min(0)
      .max(600)
      .default(10)
      .describe('on shutdown, how long requests in flight (HTTP and WebSocket) get to finish'),
    metrics: MetricsListenerConfig.optional().describe(
      'also serve GET /metrics without a token on this address (default: off; /metrics on the main port always needs a token)',
    ),
  })
  .refine((http) => http.headers_timeout_seconds <= http.request_timeout_seconds, {
    message: 'headers_timeout_seconds must not be longer than request_timeout_seconds',
    path: ['headers_timeout_seconds'],
  })
  .refine((http) => !http.metrics || http.metrics.port === 0 || http.metrics.port !== http.port, {
    message: 'must differ from backend.http.port, which serves /metrics already (with a token)',
    path: ['metrics', 'port'],
  });
export type HttpConfig = z.output<typeof HttpConfig>;

/** The core keys of the configuration; plugin, procedure, hook and cron sections are read apart. */
export const CoreConfig = z.strictObject({
  device_id: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'use 1 to 64 letters, digits, ".", "_" or "-"')
    .default(
      () =>
        hostname()
          .replace(/[^\w.-]/g, '-')
          .slice(0, 64) || 'pipit',
    ),
  workdir: z.string().min(1).optional(),
  /** Plugin packages to load: npm package names or paths relative to the config file. */
  plugins: z.array(z.string().min(1)).default([]),
  scripts_dir: z.string().min(1).default('./scripts'),
  'backend.http': HttpConfig.nullable().optional(),
  redis: RedisConfig.optional(),
  'event.namespace': z
    .enum(['pipit', 'platypush'])
    .default('pipit')
    .describe(
      'the namespace of the event kinds clients receive (platypush: platypush.message.event.*)',
    ),
  logging: z
    .strictObject({
      level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
      format: z
        .enum(['auto', 'pretty', 'json'])
        .default('auto')
        .describe('auto: readable lines on a terminal, JSON lines otherwise'),
    })
    .optional(),
});
export type CoreConfig = z.output<typeof CoreConfig>;

/** Keys whose names start with these prefixes hold user procedures, hooks and crons. */
export const SECTION_PREFIXES = ['procedure.', 'event.hook.', 'cron.'] as const;
