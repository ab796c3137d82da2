import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../helpers/net.ts';
import { killServer, spawnServer } from '../../helpers/server-process.ts';

/** A real mosquitto broker on 127.0.0.1, started for a test. */
export interface Broker {
  port: number;
  url: string;
  /** The running process' id (it changes with restart()). */
  readonly pid: number;
  /** Kills the broker (SIGKILL: its clients see the connection drop) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port, after kill(); it forgets every subscription. */
  start(): Promise<void>;
  /** Kills it for good and removes its files. */
  stop(): Promise<void>;
}

// Debian installs it in /usr/sbin, which is not on every user's PATH.
function mosquittoBinary(): string {
  if (process.env.MOSQUITTO) return process.env.MOSQUITTO;
  return existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';
}

/**
 * Starts Debian's `mosquitto` (`$MOSQUITTO` overrides the binary) with a config in a temp dir (listener on 127.0.0.1 only, anonymous
 * clients, no persistence) and resolves once it accepts connections (polled, with a deadline).
 *
 * @example
 * const broker = await startBroker();
 * // ... mqtt://127.0.0.1:<broker.port>
 * await broker.stop();
 */
export async function startBroker(
  opts: {
    port?: number;
    deadlineMs?: number;
    /** user → password: only these may connect (no anonymous clients). */
    users?: Record<string, string>;
  } = {},
): Promise<Broker> {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'pipit-mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  let auth = 'allow_anonymous true\n';
  if (opts.users) {
    const file = join(dir, 'passwords');
    writeFileSync(file, '');
    for (const [user, password] of Object.entries(opts.users))
      execFileSync('mosquitto_passwd', ['-b', file, user, password]);
    // Started as root, mosquitto reads it after dropping to its own user.
    chmodSync(dir, 0o755);
    chmodSync(file, 0o644);
    auth = `allow_anonymous false\npassword_file ${file}\n`;
  }
  writeFileSync(
    conf,
    `listener ${port} 127.0.0.1\n${auth}persistence false\nlog_dest stderr\nlog_type error\n`,
  );
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = await spawnServer({
      name: 'mosquitto',
      env: 'MOSQUITTO',
      command: mosquittoBinary(),
      args: ['-c', conf],
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
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
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
