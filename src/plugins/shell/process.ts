import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { PipitError } from '../api/index.ts';
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
  /** Holds the command from its start until its process group is empty: what a stop must end. */
  track?: Set<ShellProcess>;
}

/**
 * How long output is still read after the command's own process exited: what it wrote is in the
 * pipe already, and a process it left behind holding the pipe must not keep the command going.
 */
const DRAIN_MS = 250;

/** How often the process group is checked for an early end, between SIGTERM and SIGKILL. */
const GROUP_POLL_MS = 50;

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
 * output is closed, or {@link DRAIN_MS} after it exited when a process it left holds the output
 * open. A timeout, `kill()` or the caller's abort sends SIGTERM to the group, then SIGKILL; so does
 * the command's exit, for what it left in its group (`sleep 30 &`): nothing outlives the command
 * but processes that left the group themselves (setsid, daemons). `groupGone` settles once the
 * group is empty.
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
  readonly groupGone: Promise<void>;
  private killedFor: KillReason | undefined;
  private readonly graceMs: number;
  private timeout: NodeJS.Timeout | undefined;
  private exited = false;
  private groupEnding = false;
  private groupDone = false;
  private groupPoll: NodeJS.Timeout | undefined;
  private onGroupGone!: () => void;

  private constructor(child: ChildProcess, opts: StartOptions) {
    this.child = child;
    this.pid = child.pid!;
    this.graceMs = opts.graceMs;
    this.groupGone = new Promise((resolve) => {
      this.onGroupGone = () => {
        this.groupDone = true;
        clearTimeout(this.groupPoll);
        resolve();
      };
    });
    if (opts.track) {
      const track = opts.track;
      track.add(this);
      void Promise.all([this.groupGone, new Promise((r) => child.once('close', r))]).then(() =>
        track.delete(this),
      );
    }
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
    let drain: NodeJS.Timeout | undefined;
    child.once('exit', () => {
      this.exited = true;
      clearTimeout(this.timeout);
      this.endGroup();
      drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, DRAIN_MS);
    });
    this.done = new Promise((resolve) => {
      child.once('close', (exitCode: number | null, signal: NodeJS.Signals | null) => {
        clearTimeout(drain);
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
   * leader is already gone, for the processes that ignored SIGTERM). A command that already exited
   * is not marked killed: only what it left behind is ended. Once the group had its SIGTERM, a
   * second kill (a stop, say) sends SIGKILL at once instead of waiting out the grace period.
   */
  kill(reason: KillReason): void {
    if (this.groupEnding) {
      if (this.groupDone) return;
      signalGroup(this.pid, 'SIGKILL');
      this.onGroupGone();
      return;
    }
    if (!this.exited) {
      this.killedFor = reason;
      clearTimeout(this.timeout);
    }
    this.endGroup();
  }

  // SIGTERM to the group, then SIGKILL after the grace period unless it empties first (polled, so
  // `groupGone` settles early and no later SIGKILL can reach a group that reused the id).
  private endGroup(): void {
    if (this.groupEnding) return;
    this.groupEnding = true;
    if (!signalGroup(this.pid, 'SIGTERM')) {
      this.onGroupGone();
      return;
    }
    const deadline = Date.now() + this.graceMs;
    const poll = () => {
      if (!signalGroup(this.pid, 0)) return this.onGroupGone();
      if (Date.now() >= deadline) {
        signalGroup(this.pid, 'SIGKILL');
        return this.onGroupGone();
      }
      this.groupPoll = setTimeout(poll, Math.min(GROUP_POLL_MS, deadline - Date.now()));
    };
    poll();
  }
}
