import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accepting, freePort } from '../helpers/net.ts';

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
    const proc = spawn(
      process.env.REDIS_SERVER ?? 'redis-server',
      [
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
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let failed: Error | undefined;
    proc.once('error', (err) => (failed = err));
    proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + (opts.deadlineMs ?? 10_000);
    while (!(await accepting(port))) {
      if (failed)
        throw new Error(
          `cannot run redis-server (${failed.message}): install it with scripts/system-deps.sh, or set REDIS_SERVER`,
        );
      if (proc.exitCode !== null || Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`redis-server did not start on port ${port}: ${output || proc.exitCode}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child = proc;
  };
  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    proc.kill('SIGKILL');
    await exited;
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
