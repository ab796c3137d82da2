import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accepting, freePort } from '../../helpers/net.ts';

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
  opts: { port?: number; deadlineMs?: number } = {},
): Promise<Broker> {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'pipit-mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\nlog_type error\n`,
  );
  let child: ChildProcess | undefined;
  const launch = async () => {
    const proc = spawn(mosquittoBinary(), ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let failed: Error | undefined;
    proc.once('error', (err) => (failed = err));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const deadline = Date.now() + (opts.deadlineMs ?? 10_000);
    while (!(await accepting(port))) {
      if (failed) {
        throw new Error(
          `cannot run mosquitto (${failed.message}): install it with scripts/system-deps.sh, or set MOSQUITTO`,
        );
      }
      if (proc.exitCode !== null || Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(
          `mosquitto did not start on port ${port}: ${stderr || `exit ${proc.exitCode}`}`,
        );
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
