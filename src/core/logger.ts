import { createRequire } from 'node:module';
import { pino, stdSerializers } from 'pino';
import type { LogFn, Logger as PinoLogger, LoggerOptions } from 'pino';
import type { PinoPretty } from 'pino-pretty';
import { maskSecrets } from './redact.ts';
import { maskSecretText } from './secret-text.ts';

// pino-pretty (30 modules) is loaded only when lines are written for a terminal: services under
// systemd or Docker, and one-off commands whose output is piped, write JSON and never need it.
const requireCjs = createRequire(import.meta.url);
const prettyStream = (...args: Parameters<typeof PinoPretty>) =>
  (requireCjs('pino-pretty') as { PinoPretty: typeof PinoPretty }).PinoPretty(...args);

/** The logger every part of Pipit writes to (pino). */
export type Logger = PinoLogger;

/** How log lines are written: readable lines, JSON lines, or readable on a terminal only. */
export type LogFormat = 'auto' | 'pretty' | 'json';

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

const DEBUG_LEVELS = new Set(['trace', 'debug']);

// Errors are logged with their type, message and code; the stack trace only at debug and below,
// where someone is looking for it (at info it buries the line that says what went wrong).
function errorSerializer(withStack: boolean) {
  return (err: unknown) => {
    if (!(err instanceof Error)) return maskSecrets(err);
    const out = { ...(stdSerializers.err(err) as Record<string, unknown>) };
    if (!withStack) {
      delete out.stack;
      // The cause's stack too: pino copies causes in full.
      if (out.cause && typeof out.cause === 'object') {
        const { stack: _stack, ...cause } = out.cause as Record<string, unknown>;
        out.cause = cause;
      }
    }
    // An error's message and details may quote credentials (a URL's query, an answer's body).
    return maskSecrets(out);
  };
}

// Messages are masked as the run history masks strings (a URL with `?apitoken=`, a JWT).
function logMethod(this: PinoLogger, args: Parameters<PinoLogger['info']>, method: LogFn): void {
  const all = args as unknown[];
  for (let i = 0; i < all.length; i++) {
    const arg = all[i];
    if (typeof arg === 'string') all[i] = maskSecretText(arg);
  }
  method.apply(this, args);
}

/**
 * Creates the root logger. `PIPIT_LOG_LEVEL` overrides the level (tests set `silent`) and
 * `PIPIT_LOG_FORMAT` the format. `auto` writes readable lines when standard output is a terminal
 * and JSON lines otherwise (journald, files, log shippers).
 *
 * @example
 * const log = createLogger({ level: 'info', format: 'auto' });
 * log.info({ action: 'utils.echo' }, 'ran');
 */
export function createLogger(
  opts: { level?: string; format?: LogFormat; destination?: NodeJS.WritableStream } = {},
): Logger {
  const level = process.env.PIPIT_LOG_LEVEL ?? opts.level ?? 'info';
  const format = (process.env.PIPIT_LOG_FORMAT as LogFormat | undefined) ?? opts.format ?? 'auto';
  const options: LoggerOptions = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: undefined,
    serializers: { err: errorSerializer(DEBUG_LEVELS.has(level)) },
    hooks: { logMethod },
  };
  const pretty =
    format === 'pretty' || (format === 'auto' && !opts.destination && process.stdout.isTTY);
  if (pretty) {
    // Synchronous, in this thread: a worker-thread transport would lose the last lines on exit.
    const stream = prettyStream({
      sync: true,
      colorize: !opts.destination && process.stdout.isTTY,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
      singleLine: true,
      ...(opts.destination ? { destination: opts.destination } : {}),
    });
    return pino(options, stream);
  }
  return opts.destination ? pino(options, opts.destination) : pino(options);
}

/**
 * The `err` field of a failure's log line, only where someone is debugging: a failure is one line
 * at the default level (its message says what went wrong, and the run history keeps the details),
 * while the error object (stack, cause, details) takes several lines on a terminal.
 *
 * @example
 * log.warn({ cron: name, ...debugErr(log, err) }, `cron job ${name} failed: ${err.message}`);
 */
export function debugErr(log: Logger, err: unknown): { err?: unknown } {
  return log.isLevelEnabled('debug') ? { err } : {};
}
