import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { vi } from 'vitest';
import { freePort } from '../../helpers/net.ts';

/** A real PostgreSQL server on 127.0.0.1, started for a test with a cluster of its own. */
export interface PostgresServer {
  port: number;
  user: string;
  password: string;
  /** `postgresql://<user>:<password>@127.0.0.1:<port>/postgres` */
  url: string;
  /** The folder of its Unix socket (`-k`), where local connections need no password. */
  socketDir: string;
  /** The postmaster's process id (it changes with start()); 0 while it is stopped. */
  readonly pid: number;
  /** Fast shutdown (SIGINT, by PID): sessions end, clients see the server go; waits for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data directory, after kill(); resolves once it answers. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory (data and socket). */
  stop(): Promise<void>;
}

/**
 * The newest Debian PostgreSQL (`/usr/lib/postgresql/<version>/bin`) with `initdb` and `postgres`,
 * or `$PG_BIN`. Debian keeps them off PATH, and CI may install any major version.
 */
function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+(\.\d+)?$/.test(v) && existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0])
    throw new Error(
      `no PostgreSQL under ${root}/<version>/bin: install it with scripts/system-deps.sh (apt-get install postgresql), or set PG_BIN`,
    );
  return join(root, versions[0], 'bin');
}

/**
 * Who runs the server: PostgreSQL refuses to run as root, so under root (CI) the commands run as
 * Debian's `postgres` user — set by spawn's uid/gid, as `setpriv --reuid` would, so that the PID
 * we hold is the postmaster's own (runuser would sit in between and survive a kill of its child).
 */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error(
      'running as root, and there is no "postgres" user to run PostgreSQL as: install the postgresql package (scripts/system-deps.sh)',
    );
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Creates a cluster with `initdb` in a temp dir (password authentication — scram-sha-256 — over
 * TCP for `user`, trust on its own Unix socket), runs `postgres` on a free loopback port with
 * `-k <tempdir>` for the socket, and resolves once a client can log in. Durability is off
 * (fsync) since the data is thrown away.
 *
 * @example
 * const server = await startPostgres({ password: 's3cret' });
 * // ... server.url
 * await server.stop();
 */
export async function startPostgres(
  opts: { user?: string; password?: string; deadlineMs?: number } = {},
): Promise<PostgresServer> {
  const bin = postgresBin();
  const as = serverUser();
  const user = opts.user ?? 'pipit';
  const password = opts.password ?? 'correct-horse-battery';
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pipit-pg-'));
  const data = join(dir, 'data');
  let child: ChildProcess | undefined;
  const onExit = () => {
    // The test process is going away without its teardown: leave no server behind.
    if (child?.pid && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
  };
  process.once('exit', onExit);
  const removeAll = async () => {
    await kill();
    process.removeListener('exit', onExit);
    rmSync(dir, { recursive: true, force: true });
  };
  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc?.pid || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    process.kill(proc.pid, 'SIGINT');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const launch = async () => {
    const proc = spawn(
      join(bin, 'postgres'),
      [
        ...['-D', data, '-p', String(port), '-k', dir],
        ...['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
        ...['-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
        ...['-c', 'max_connections=30', '-c', 'shared_buffers=16MB'],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], ...as },
    );
    child = proc;
    let output = '';
    proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const failed = new Promise<never>((_, reject) => {
      proc.once('error', (err) => reject(new Error(`cannot run ${bin}/postgres: ${err.message}`)));
      proc.once('exit', (code, signal) =>
        reject(new Error(`postgres exited (${code ?? signal}) while starting: ${output}`)),
      );
    });
    // Ready means a client logs in with the password, which also proves the auth setup.
    const ready = vi.waitFor(
      async () => {
        if (proc.exitCode !== null) return;
        const client = new pg.Client({
          host: '127.0.0.1',
          port,
          user,
          password,
          database: 'postgres',
        });
        try {
          await client.connect();
        } finally {
          await client.end().catch(() => undefined);
        }
      },
      { timeout: opts.deadlineMs ?? 15_000, interval: 50 },
    );
    try {
      await Promise.race([ready, failed]);
    } catch (err) {
      await kill();
      throw err;
    }
    failed.catch(() => undefined);
  };
  try {
    if (as) chownSync(dir, as.uid, as.gid);
    const pwfile = join(dir, 'pwfile');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (as) chownSync(pwfile, as.uid, as.gid);
    const init = spawnSync(
      join(bin, 'initdb'),
      [
        ...['-D', data, '-U', user, `--pwfile=${pwfile}`],
        ...['--auth-host=scram-sha-256', '--auth-local=trust', '-N', '--no-locale', '-E', 'UTF8'],
      ],
      { encoding: 'utf8', ...as },
    );
    if (init.error || init.status !== 0)
      throw new Error(`initdb failed: ${init.error?.message ?? `${init.stderr}${init.stdout}`}`);
    await launch();
  } catch (err) {
    await removeAll();
    throw err;
  }
  return {
    port,
    user,
    password,
    url: `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    socketDir: dir,
    get pid() {
      return child?.pid ?? 0;
    },
    kill,
    start: launch,
    stop: removeAll,
  };
}
