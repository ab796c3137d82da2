import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { PipitError } from '../../core/errors.ts';
import type { CommandPlan } from './allow.ts';
import { BoundedBuffer, LineSplitter } from './output.ts';

/** How a command is started and watched. */
export interface StartOptions {
  plan: CommandPlan;
  cwd?: string;
  /** Variables added to (or replacing) the service's own environment. */
  env?: Record<string, string>;
  /** Kill the process group after this long; 0 = never. */
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL to the group. */
  graceMs: number;
  /** Kept per stream; with `onLine`, also the most streamed per stream. */
  maxOutputBytes: number;
  /** Streaming: called for every whole line of output, in order, within `maxOutputBytes` per stream. */
  onLine?: (stream: 'stdout' | 'stderr', line: string, pid: number) => void;
}

/** Why Pipit killed a command, when it did. */
export type KillReason = 'timeout' | 'aborted' | 'killed' | 'stopped';

/** How a command ended. */
export interface ProcessResult {
  pid: number;
  /** The exit status; null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: BoundedBuffer;
  stderr: BoundedBuffer;
  killed: KillReason | undefined;
  durationMs: number;
}

// Signals every process of the group led by `pid`; false when none is left.
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function checkCwd(cwd: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    throw new PipitError(
      'ACTION_FAILED',
      `shell.exec: the directory "cwd" ${JSON.stringify(cwd)} does not exist`,
    );
  }
  if (!isDir)
    throw new PipitError(
      'ACTION_FAILED',
      `shell.exec: "cwd" ${JSON.stringify(cwd)} is not a directory`,
    );
}

/**
 * A running command in its own process group (spawned detached, so `kill(-pid)` reaches every
 * process it started, grandchildren included). `done` settles once the command has exited and its
 * output is closed; a timeout, `kill()` or the caller's abort sends SIGTERM to the group, then SIGKILL.
 *
 * @example
 * const p = await ShellProcess.start({ plan: planCommand('sleep 5; echo hi', undefined), timeoutMs: 1000, graceMs: 2000, maxOutputBytes: 1 << 20 });
 * const { killed } = await p.done; // 'timeout'
 */
export class ShellProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly done: Promise<ProcessResult>;
  readonly startedAt = Date.now();
  private killedFor: KillReason | undefined;
  private readonly graceMs: number;
  private timeout: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(child: ChildProcess, opts: StartOptions) {
    this.child = child;
    this.pid = child.pid!;
    this.graceMs = opts.graceMs;
    const stdout = new BoundedBuffer(opts.maxOutputBytes);
    const stderr = new BoundedBuffer(opts.maxOutputBytes);
    const splitters = opts.onLine
      ? {
          stdout: new LineSplitter((line) => opts.onLine!('stdout', line, this.pid)),
          stderr: new LineSplitter((line) => opts.onLine!('stderr', line, this.pid)),
        }
      : undefined;
    const feed = (name: 'stdout' | 'stderr', buffer: BoundedBuffer) => (chunk: Buffer) => {
      const room = buffer.limit - buffer.total;
      buffer.push(chunk);
      if (!splitters) return;
      if (room > 0) splitters[name].push(room >= chunk.length ? chunk : chunk.subarray(0, room));
      // Past the limit (even by a later chunk), the line in progress will never be complete.
      if (buffer.truncated) splitters[name].cut();
    };
    // Started: later errors (a failed signal) must not become uncaught exceptions.
    child.on('error', () => undefined);
    child.stdout!.on('data', feed('stdout', stdout));
    child.stderr!.on('data', feed('stderr', stderr));
    if (opts.timeoutMs > 0) this.timeout = setTimeout(() => this.kill('timeout'), opts.timeoutMs);
    this.done = new Promise((resolve) => {
      child.once('close', (exitCode: number | null, signal: NodeJS.Signals | null) => {
        clearTimeout(this.timeout);
        this.closed = true;
        splitters?.stdout.end();
        splitters?.stderr.end();
        resolve({
          pid: this.pid,
          exitCode,
          signal,
          stdout,
          stderr,
          killed: this.killedFor,
          durationMs: Date.now() - this.startedAt,
        });
      });
    });
  }

  /**
   * Starts a command; throws ACTION_FAILED when it cannot start (no such program or directory).
   *
   * @example
   * const p = await ShellProcess.start({ plan, timeoutMs: 0, graceMs: 2000, maxOutputBytes: 65536 });
   */
  static async start(opts: StartOptions): Promise<ShellProcess> {
    if (opts.cwd !== undefined) checkCwd(opts.cwd);
    let child: ChildProcess;
    try {
      child = spawn(opts.plan.file, opts.plan.args, {
        ...(opts.plan.argv0 === undefined ? {} : { argv0: opts.plan.argv0 }),
        cwd: opts.cwd,
        env: opts.env ? { ...process.env, ...opts.env } : process.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      throw new PipitError(
        'ACTION_FAILED',
        `shell.exec: cannot start ${opts.plan.display}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    // A program that cannot be found fails after spawn() returns, before any output.
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        const what =
          err.code === 'ENOENT'
            ? `program ${JSON.stringify(opts.plan.file)} not found (check the name and the service's PATH)`
            : err.message;
        reject(
          new PipitError(
            'ACTION_FAILED',
            `shell.exec: cannot start ${opts.plan.display}: ${what}`,
            { cause: err },
          ),
        );
      };
      child.once('error', onError);
      child.once('spawn', () => {
        child.off('error', onError);
        resolve();
      });
    });
    return new ShellProcess(child, opts);
  }

  /**
   * Ends the whole process group: SIGTERM, then SIGKILL after the grace period (even when the
   * leader is already gone, for the processes that ignored SIGTERM). If a process that left the group
   * still holds the output open, the output is closed so `done` settles anyway.
   */
  kill(reason: KillReason): void {
    if (this.killedFor) return;
    this.killedFor = reason;
    clearTimeout(this.timeout);
    signalGroup(this.pid, 'SIGTERM');
    setTimeout(() => {
      signalGroup(this.pid, 'SIGKILL');
      if (this.closed) return;
      setTimeout(() => {
        this.child.stdout?.destroy();
        this.child.stderr?.destroy();
      }, 500).unref();
    }, this.graceMs).unref();
  }
}
