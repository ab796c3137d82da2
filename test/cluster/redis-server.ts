import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/net.ts';
import { killServer, spawnServer } from '../helpers/server-process.ts';

/** A real Debian `redis-server` on 127.0.0.1, started for a test. */
export interface RedisServer {
  port: number;
  /** `redis://` (or `rediss://` with TLS), with the password when there is one. */
  url: string;
  /** The running process' id (it changes with start()). */
  readonly pid: number;
  /** Kills it (SIGKILL: clients see the connection drop; nothing is saved) and waits for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port, after kill(): empty, as after a crash without persistence. */
  start(): Promise<void>;
  /** Kills it for good and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` (`$REDIS_SERVER` overrides the binary) on a free loopback port (or `port`) with a data
 * directory of its own and no persistence (`--save '' --appendonly no`), and resolves once it
 * accepts connections.
 *
 * @example
 * const redis = await startRedis();
 * // ... redis://127.0.0.1:<redis.port>
 * await redis.stop();
 */
export async function startRedis(
  opts: {
    port?: number;
    deadlineMs?: number;
    /** Clients must give this password (`requirepass`). */
    password?: string;
    /** Serve TLS only (`rediss://`), with this certificate and key (PEM files). */
    tls?: { cert: string; key: string };
    /** More arguments for redis-server (`['--cluster-enabled', 'yes']`). */
    args?: string[];
  } = {},
): Promise<RedisServer> {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'pipit-redis-'));
  let child: ChildProcess | undefined;
  const security = [
    ...(opts.password ? ['--requirepass', opts.password] : []),
    ...(opts.tls
      ? [
          '--tls-cert-file',
          opts.tls.cert,
          '--tls-key-file',
          opts.tls.key,
          '--tls-ca-cert-file',
          opts.tls.cert,
          '--tls-auth-clients',
          'no',
        ]
      : []),
  ];
  const launch = async () => {
    child = await spawnServer({
      name: 'redis-server',
      env: 'REDIS_SERVER',
      command: process.env.REDIS_SERVER ?? 'redis-server',
      args: [
        ...(opts.tls ? ['--port', '0', '--tls-port', String(port)] : ['--port', String(port)]),
        ...security,
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--loglevel',
        'warning',
        ...(opts.args ?? []),
      ],
      port,
      ...(opts.deadlineMs ? { deadlineMs: opts.deadlineMs } : {}),
    });
  };
  const kill = async () => {
    const proc = child;
    child = undefined;
    await killServer(proc);
  };
  await launch();
  const auth = opts.password ? `:${encodeURIComponent(opts.password)}@` : '';
  return {
    port,
    url: `${opts.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${port}`,
    get pid() {
      return child?.pid ?? 0;
    },
    kill,
    start: launch,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
