import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { accepting } from './net.ts';

/**
 * Spawns a real server the tests need (mosquitto, redis-server) and resolves once `port` accepts
 * connections; a binary that cannot run, exits early or misses the deadline is an error that names
 * the fix (`env` is the variable that overrides the binary).
 *
 * @example
 * const proc = await spawnServer({ name: 'redis-server', env: 'REDIS_SERVER', command: 'redis-server', args: ['--port', '6390'], port: 6390 });
 */
export async function spawnServer(opts: {
  name: string;
  env: string;
  command: string;
  args: string[];
  port: number;
  deadlineMs?: number;
}): Promise<ChildProcess> {
  const proc = spawn(opts.command, opts.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let failed: Error | undefined;
  proc.once('error', (err) => (failed = err));
  proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + (opts.deadlineMs ?? 10_000);
  while (!(await accepting(opts.port))) {
    if (failed)
      throw new Error(
        `cannot run ${opts.name} (${failed.message}): install it with scripts/system-deps.sh, or set ${opts.env}`,
      );
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(
        `${opts.name} did not start on port ${opts.port}: ${output || `exit ${proc.exitCode}`}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return proc;
}

/**
 * Kills a server started by {@link spawnServer} with SIGKILL and waits for it to exit (no-op when
 * it is gone already).
 *
 * @example
 * await killServer(proc);
 */
export async function killServer(proc: ChildProcess | undefined): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  proc.kill('SIGKILL');
  await exited;
}
