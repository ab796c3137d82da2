import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

/** The CLI entry point, run from source by Node 24's type stripping. */
export const CLI = join(import.meta.dirname, '../../src/cli/main.ts');

/** A `pipit start` child process. */
export interface PipitProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  logs: string[];
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `pipit start --config <path>` and resolves once its log says where it listens (or, with
 * `ready`, once a line matches it; its first group is the `url`).
 *
 * @example
 * const p = await startPipitProcess(configPath);
 * await fetch(`${p.url}/auth/status`);
 * await p.stop();
 */
export async function startPipitProcess(
  configPath: string,
  env: NodeJS.ProcessEnv = {},
  ready: RegExp = /Pipit listening on (\S+?)"/,
): Promise<PipitProcess> {
  const child = spawn(process.execPath, [CLI, 'start', '--config', configPath], {
    env: { ...process.env, PIPIT_LOG_LEVEL: 'info', ...env },
  });
  const logs: string[] = [];
  let buffer = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        logs.push(line);
        const match = ready.exec(line);
        if (match) resolve(match[1] ?? '');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => logs.push(c.toString()));
    child.once('exit', (code) =>
      reject(new Error(`pipit exited with ${code} before listening:\n${logs.join('\n')}`)),
    );
  });
  return {
    child,
    url,
    logs,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

/**
 * Runs a CLI command to completion.
 *
 * @example
 * const { code, stdout } = await runCli(['run', 'utils.echo', 'a=1'], { cwd: dir });
 */
export async function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, PIPIT_LOG_LEVEL: 'warn', ...opts.env },
    cwd: opts.cwd,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(opts.input ?? '');
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a process group started with `detached: true` (a shell or `npm start` and everything under
 * it) and resolves once no process of it is left: SIGTERM, then SIGKILL after `graceMs`. Waiting
 * for the group, not the leader, matters: `npm start` exits at once on SIGTERM while the service
 * it started is still stopping, and a test that moved on then left it running, orphaned.
 *
 * @example
 * const child = spawn('npm', ['start'], { detached: true });
 * afterAll(() => stopProcessGroup(child.pid!));
 */
export async function stopProcessGroup(pgid: number, graceMs = 15_000): Promise<void> {
  if (!groupAlive(pgid)) return;
  process.kill(-pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  // There is no event for "the last process of a group exited": poll the group with signal 0.
  while (groupAlive(pgid) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (groupAlive(pgid)) {
    process.kill(-pgid, 'SIGKILL');
    while (groupAlive(pgid)) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
