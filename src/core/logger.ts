import { pino } from 'pino';
import type { Logger as PinoLogger, LoggerOptions } from 'pino';

/** The logger every part of Pipit writes to (pino). */
export type Logger = PinoLogger;

/**
 * Paths that never reach a log line: credentials in headers, bodies and query strings.
 * Fastify's request serializer is replaced too (see `src/http/log.ts`), so URLs are redacted there.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-token"]',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'password',
  'token',
  '*.password',
  '*.token',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
];

/**
 * Creates the root logger. `PIPIT_LOG_LEVEL` overrides the level (tests set `silent`).
 *
 * @example
 * const log = createLogger({ level: 'info' });
 * log.info({ action: 'utils.echo' }, 'ran');
 */
export function createLogger(
  opts: { level?: string; destination?: NodeJS.WritableStream } = {},
): Logger {
  const options: LoggerOptions = {
    level: process.env.PIPIT_LOG_LEVEL ?? opts.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: undefined,
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
