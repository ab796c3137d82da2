import { secret, z } from '../api/index.ts';

/**
 * The `music.mpd:` section, with Platypush's keys (`host`, `port`, `password`, `poll_interval`)
 * and Pipit's own: a timeout for each command and the bounds of the reconnection backoff.
 *
 * @example
 * MpdConfig.parse({ host: '/run/mpd/socket' }).port; // 6600 (unused: a path is a Unix socket)
 */
export const MpdConfig = z.strictObject({
  host: z
    .string()
    .min(1)
    .default('localhost')
    .describe(
      'the MPD server: a host name or IP address, or the path of its Unix socket (starts with "/")',
    ),
  port: z.number().int().min(1).max(65535).default(6600).describe('the MPD TCP port'),
  password: secret(
    z
      .string()
      .min(1)
      .optional()
      .describe('MPD\'s password (its mpd.conf "password"), if it has one'),
  ),
  timeout: z
    .number()
    .positive()
    .max(600)
    .default(10)
    .describe('seconds to wait for MPD to answer a command (and to connect)'),
  poll_interval: z
    .number()
    .nonnegative()
    .nullable()
    .optional()
    .describe(
      "Platypush's polling interval: accepted and unused, Pipit hears changes at once with MPD's idle command",
    ),
  reconnect_min_seconds: z
    .number()
    .positive()
    .max(600)
    .default(1)
    .describe('first wait before reconnecting to MPD; doubles on each failure'),
  reconnect_max_seconds: z
    .number()
    .positive()
    .max(3600)
    .default(30)
    .describe('the longest wait between reconnection attempts'),
});
export type MpdConfig = z.output<typeof MpdConfig>;

/**
 * Where the server is, for messages: `host:port`, or the socket's path.
 *
 * @example
 * serverName({ host: '127.0.0.1', port: 6600 }); // '127.0.0.1:6600'
 */
export function serverName(config: Pick<MpdConfig, 'host' | 'port'>): string {
  return isSocketPath(config.host) ? config.host : `${config.host}:${config.port}`;
}

/** A `host` that starts with "/" is the path of MPD's Unix socket, as in python-mpd2. */
export function isSocketPath(host: string): boolean {
  return host.startsWith('/');
}
